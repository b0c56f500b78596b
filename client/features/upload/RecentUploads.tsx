/** The 3 most recent uploads (docs/PRODUCT.md §2.3), reloaded whenever `refreshKey` changes. */
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useLoadedList } from "../../components/use_admin_list.ts";
import { CopyButton } from "../../components/CopyButton.tsx";
import { RECENT_UPLOADS_SHOWN } from "../../../shared/constants.ts";
import { listRecentUploads } from "./upload_api.ts";
import { formatBytes, formatDateTime } from "../../lib/format.ts";
import { fileShareUrl } from "./ShareResult.tsx";
import { NewTabLink } from "../../components/NewTabLink.tsx";

export function RecentUploads({ refreshKey }: { refreshKey: number }) {
  const { t, i18n } = useTranslation();
  // A new refreshKey makes a new fetch, which loads again.
  const fetch = useCallback(() => listRecentUploads(RECENT_UPLOADS_SHOWN), [refreshKey]);
  const { data: files, error, loading, load } = useLoadedList(fetch);

  return (
    <section
      className="card upload-recent"
      aria-labelledby="upload-recent-title"
      aria-busy={loading}
    >
      <div className="upload-section-head">
        <h2 id="upload-recent-title">{t("upload.recent.title")}</h2>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => void load()}
          disabled={loading}
        >
          {t("upload.recent.refresh")}
        </button>
      </div>
      {error && (
        <div className="alert alert-error" role="alert">
          <span>{t("upload.recent.failed")} {error}</span>
        </div>
      )}
      {files && files.length === 0 && <p className="muted">{t("upload.recent.empty")}</p>}
      {files && files.length > 0 && (
        <ul className="upload-recent-list">
          {files.map((f) => {
            const url = fileShareUrl(f);
            return (
              <li key={f.id} className="upload-recent-item">
                <div className="upload-recent-info">
                  <NewTabLink
                    href={url}
                    className="upload-recent-name"
                  >
                    {f.e2e ? t("e2e.encryptedName") : f.filename}
                  </NewTabLink>
                  <span className="muted upload-recent-meta">
                    {formatBytes(f.size)} ·{" "}
                    <time dateTime={f.created_at}>
                      {formatDateTime(f.created_at, i18n.language)}
                    </time>
                  </span>
                </div>
                {f.e2e
                  // The key was only in the link shown after the upload: nothing to copy here.
                  ? <span className="muted">{t("e2e.keyNotKept")}</span>
                  : (
                    <CopyButton
                      text={url}
                      label={t("upload.recent.copy")}
                      className="btn btn-small"
                    />
                  )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
