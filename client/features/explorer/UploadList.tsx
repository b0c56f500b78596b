/** The explorer's uploads: each file's progress with speed and time left, or its result. */
import { useTranslation } from "react-i18next";
import { uploadErrorText } from "../upload/UploadItemRow.tsx";
import { formatBytes } from "../../lib/format.ts";
import { formatDuration, formatSpeed } from "../../lib/upload/speed.ts";
import type { ExplorerUpload } from "./use_uploads.ts";

function Row(
  { item, onCancel, onRetry, onDismiss }: {
    item: ExplorerUpload;
    onCancel: () => void;
    onRetry: () => void;
    onDismiss: () => void;
  },
) {
  const { t } = useTranslation();
  const p = item.progress;
  const name = item.file.name;
  return (
    <li className={`explorer-upload explorer-upload-${item.status}`}>
      <div className="explorer-upload-head">
        <span className="entry-name">{name}</span>
        <span className="muted">{formatBytes(item.file.size)}</span>
        <span className="badge">{t(`explorer.upload.status.${item.status}`)}</span>
        {/* On the name's line, so a finished row is one line, not a line for its ×. */}
        {item.status !== "uploading" && item.status !== "queued" && (
          <button
            type="button"
            className="btn btn-small btn-ghost explorer-upload-dismiss"
            aria-label={t("explorer.upload.dismiss", { name })}
            onClick={onDismiss}
          >
            ×
          </button>
        )}
      </div>
      {item.status === "uploading" && (
        <>
          <progress
            className="upload-progress"
            max={100}
            value={p?.percent ?? 0}
            aria-label={t("explorer.upload.progress", { name })}
          />
          <p className="muted explorer-upload-stats" aria-live="off">
            {p?.stage === "processing"
              ? t("explorer.upload.processing")
              : t("explorer.upload.stats", {
                percent: p?.percent ?? 0,
                speed: formatSpeed(p?.speed ?? 0),
                eta: p?.eta == null ? "—" : formatDuration(t, p.eta),
              })}
          </p>
        </>
      )}
      {item.status === "failed" && (
        <p className="field-error" role="alert">{uploadErrorText(t, item.error)}</p>
      )}
      {item.status !== "done" && (
        <div className="explorer-upload-actions">
          {(item.status === "uploading" || item.status === "queued") && (
            <button type="button" className="btn btn-small" onClick={onCancel}>
              {t("common.cancel")}
            </button>
          )}
          {(item.status === "failed" || item.status === "cancelled") && (
            <button type="button" className="btn btn-small" onClick={onRetry}>
              {t("common.retry")}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

export function UploadList(
  { items, onCancel, onRetry, onDismiss, onClear }: {
    items: ExplorerUpload[];
    onCancel: (id: number) => void;
    onRetry: (id: number) => void;
    onDismiss: (id: number) => void;
    onClear: () => void;
  },
) {
  const { t } = useTranslation();
  if (!items.length) return null;
  const finished = items.filter((i) => i.status !== "queued" && i.status !== "uploading").length;
  return (
    <section className="explorer-panel explorer-uploads" aria-label={t("explorer.upload.title")}>
      <header className="explorer-panel-head">
        <h2 className="explorer-panel-title">{t("explorer.upload.title")}</h2>
        {finished > 0 && (
          <button type="button" className="btn btn-small" onClick={onClear}>
            {t("explorer.upload.clear")}
          </button>
        )}
      </header>
      <ul className="explorer-upload-list">
        {items.map((i) => (
          <Row
            key={i.id}
            item={i}
            onCancel={() => onCancel(i.id)}
            onRetry={() =>
              onRetry(i.id)}
            onDismiss={() =>
              onDismiss(i.id)}
          />
        ))}
      </ul>
    </section>
  );
}
