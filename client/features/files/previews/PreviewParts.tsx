/** Small pieces every preview uses: loading, problems, the truncation note, a view toggle. */
import { useTranslation } from "react-i18next";
import { Spinner } from "../../../components/Spinner.tsx";
import { isExpiredLinkStatus } from "../format.ts";
import { formatBytes } from "../../../lib/format.ts";
import { TEXT_PREVIEW_MAX_BYTES } from "./fetch_preview.ts";
import { ToggleGroup } from "../../../components/ToggleGroup.tsx";

/** What every preview gets besides the file: how to refresh the links, where to download. */
export type PreviewActions = {
  /** Opens the share again for fresh links (counts a view, like a reload). */
  onRefresh: () => void;
  downloadHref: string;
};

export function PreviewLoading() {
  const { t } = useTranslation();
  return (
    <div className="file-preview-loading">
      <Spinner />
      <p className="muted">{t("preview.loading")}</p>
    </div>
  );
}

/**
 * A preview that could not be shown. 401/403/410 mean the signed link is no longer accepted
 * ("the download link may have expired, refresh"); a 2xx means the browser cannot show the
 * format; anything else is a failed preview. The download stays available.
 */
export function PreviewProblem(
  { status, onRefresh, downloadHref }: { status: number } & PreviewActions,
) {
  const { t } = useTranslation();
  const expired = isExpiredLinkStatus(status);
  const unsupported = status >= 200 && status < 300;
  return (
    <div className="file-preview-problem" role="alert">
      <p className="file-preview-problem-title">
        {expired ? t("errors.link_may_have_expired") : t("errors.preview_failed")}
      </p>
      <p className="muted">
        {expired
          ? t("preview.problem.expiredBody")
          : unsupported
          ? t("preview.problem.unsupported")
          : status === 404
          ? t("preview.problem.notFound")
          : t("preview.problem.failedBody")}
      </p>
      <p className="file-preview-problem-actions">
        {expired
          ? (
            <button type="button" className="btn btn-primary" onClick={onRefresh}>
              {t("preview.refresh")}
            </button>
          )
          : (
            <a className="btn btn-primary" href={downloadHref} download>
              {t("file.download")}
            </a>
          )}
      </p>
    </div>
  );
}

/** Says that only the start of a long file is shown. */
export function TruncatedNote({ size }: { size: number }) {
  const { t } = useTranslation();
  return (
    <p className="file-preview-note" role="note">
      {t("preview.truncated", {
        shown: formatBytes(TEXT_PREVIEW_MAX_BYTES),
        size: formatBytes(size),
      })}
    </p>
  );
}

/** The "looks binary" state of a text preview. */
export function BinaryNote({ downloadHref }: { downloadHref: string }) {
  const { t } = useTranslation();
  return (
    <div className="file-preview-problem">
      <p className="muted">{t("preview.binary")}</p>
      <a className="btn btn-primary" href={downloadHref} download>{t("file.download")}</a>
    </div>
  );
}

export type PreviewMode = "rendered" | "source";

/** Switches between the rendered view and the source (HTML, Markdown). */
export function ViewToggle(
  { mode, onChange }: { mode: PreviewMode; onChange: (mode: PreviewMode) => void },
) {
  const { t } = useTranslation();
  return (
    <ToggleGroup
      className="file-view-toggle"
      label={t("preview.mode.label")}
      options={["rendered", "source"] as const}
      value={mode}
      onChange={onChange}
      optionLabel={(m) => t(`preview.mode.${m}`)}
      highlight
    />
  );
}
