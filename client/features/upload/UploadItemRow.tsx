/** One file in the queue: name and size, progress with speed and time left, result or error. */
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import type { QueueItem } from "./upload_queue.ts";
import { formatBytes, formatDuration, formatSpeed } from "./format.ts";
import { ShareResult } from "./ShareResult.tsx";

/** The text of an upload error, with sizes in readable units for the size and quota errors. */
export function uploadErrorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiError) {
    const d = (err.data ?? {}) as Record<string, unknown>;
    const num = (k: string) => (typeof d[k] === "number" ? d[k] as number : null);
    if (err.code === "storage_quota_exceeded" && num("total") !== null) {
      return t("upload.errors.quota", {
        file: formatBytes(num("file_size") ?? 0),
        remaining: formatBytes(num("remaining") ?? 0),
        total: formatBytes(num("total")!),
      });
    }
    if (err.code === "file_too_large" && num("max_bytes") !== null) {
      return t("upload.errors.tooLarge", {
        message: t("errors.file_too_large"),
        size: formatBytes(num("file_size") ?? 0),
        max: formatBytes(num("max_bytes")!),
      });
    }
    if (err.code === "upload_network_error" && err.params.direct) {
      return t("upload.errors.withHint", {
        message: errorText(t, err),
        hint: t("upload.errors.corsHint"),
      });
    }
  }
  return errorText(t, err, "upload_failed");
}

const BADGE: Record<QueueItem["status"], string> = {
  ready: "badge",
  waiting: "badge",
  uploading: "badge badge-primary",
  done: "badge badge-success",
  failed: "badge badge-danger",
  cancelled: "badge badge-warning",
  rejected: "badge badge-danger",
};

export function UploadItemRow(
  { item, onCancel, onRetry, onRemove }: {
    item: QueueItem;
    onCancel: () => void;
    onRetry: () => void;
    onRemove: () => void;
  },
) {
  const { t } = useTranslation();
  const p = item.progress;
  const active = item.status === "uploading" || item.status === "waiting";
  // No byte count yet (starting, initializing): an indeterminate bar.
  const determinate = !!p && p.stage !== "starting" && p.stage !== "initializing";
  const percent = item.status === "done" ? 100 : (p?.percent ?? 0);
  const stage = item.status === "waiting"
    ? t("upload.item.status.waiting")
    : p
    ? t(`upload.stage.${p.stage}`)
    : t(`upload.item.status.${item.status}`);
  const stats = [`${percent}%`];
  if (item.status === "uploading" && p?.stage === "uploading") {
    if (p.speed > 0) stats.push(formatSpeed(p.speed));
    if (p.eta !== null) stats.push(t("upload.item.left", { time: formatDuration(t, p.eta) }));
  }
  const errorMsg = item.error && item.status !== "cancelled"
    ? uploadErrorText(t, item.error)
    : null;

  return (
    <li className={`upload-item upload-item-${item.status}`}>
      <div className="upload-item-head">
        <span className="upload-item-name" title={item.name}>{item.name}</span>
        <span className="upload-item-size muted">{formatBytes(item.size)}</span>
        <span className={BADGE[item.status]}>{t(`upload.item.status.${item.status}`)}</span>
      </div>

      {active && (
        <div className="upload-item-progress">
          <progress
            className="upload-progress"
            max={100}
            value={item.status === "waiting" ? 0 : determinate ? percent : undefined}
            aria-label={t("upload.item.progress", { name: item.name })}
            aria-valuetext={`${percent}% · ${stage}`}
          />
          <p className="upload-item-stats">
            <span className="upload-item-stage">{stage}</span>
            <span className="muted">{stats.join(" · ")}</span>
          </p>
        </div>
      )}

      {errorMsg && <p className="field-error upload-item-error">{errorMsg}</p>}
      {item.status === "done" && item.result && <ShareResult file={item.result} />}

      <div className="upload-item-actions">
        {active && (
          <button
            type="button"
            className="btn btn-small"
            aria-label={t("upload.item.cancelLabel", { name: item.name })}
            onClick={onCancel}
          >
            {t("upload.item.cancel")}
          </button>
        )}
        {(item.status === "failed" || item.status === "cancelled") && (
          <button
            type="button"
            className="btn btn-small"
            aria-label={t("upload.item.retryLabel", { name: item.name })}
            onClick={onRetry}
          >
            {t("upload.item.retry")}
          </button>
        )}
        {!active && (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            aria-label={t("upload.item.removeLabel", { name: item.name })}
            onClick={onRemove}
          >
            {t("upload.item.remove")}
          </button>
        )}
      </div>
    </li>
  );
}
