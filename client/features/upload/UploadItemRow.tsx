/** One file in the queue: name and size, progress with speed and time left, result or error. */
import { useTranslation } from "react-i18next";
import { type SmallAction, SmallButtons } from "../../components/ListTable.tsx";
import type { TFunction } from "i18next";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import type { QueueItem } from "./upload_queue.ts";
import type { PartsProgress } from "../../lib/uploader.ts";
import { formatBytes } from "../../lib/format.ts";
import { formatDuration, formatSpeed } from "../../lib/upload/speed.ts";
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
    if (err.code === "etag_missing" && err.params.direct) {
      return t("upload.errors.withHint", {
        message: errorText(t, err),
        hint: t("upload.errors.etagHint"),
      });
    }
  }
  return errorText(t, err, "upload_failed");
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
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

/** True when a failed upload kept its parts on the server, so Retry continues it. */
function resumableFailure(item: QueueItem): boolean {
  return item.status === "failed" && item.error instanceof ApiError &&
    item.error.params.resumable === true;
}

const DOWNLOADING = new Set(["downloading", "proxyDownloading"]);
const MOVING = new Set(["uploading", "downloading", "proxyDownloading"]);

/** The per-part strip and counts of a multipart upload. */
function PartsLine({ parts }: { parts: PartsProgress }) {
  const { t } = useTranslation();
  return (
    <div className="upload-parts">
      {parts.chunks && (
        <span className="upload-parts-strip" aria-hidden="true">
          {parts.chunks.map((c, i) => (
            <span key={i} className={`upload-chunk upload-chunk-${c}`} />
          ))}
        </span>
      )}
      <span className="upload-parts-text muted">
        {t("upload.item.parts", { done: parts.completed, total: parts.total })}
        {parts.resumed > 0 && ` · ${t("upload.item.resumed", { count: parts.resumed })}`}
      </span>
    </div>
  );
}

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
  // No byte count yet (starting, initializing, a download of unknown length): indeterminate.
  const determinate = !!p && p.stage !== "starting" && p.stage !== "initializing" &&
    !(DOWNLOADING.has(p.stage) && p.total === 0);
  const percent = item.status === "done" ? 100 : (p?.percent ?? 0);
  const stage = item.status === "waiting"
    ? t("upload.item.status.waiting")
    : p
    ? t(`upload.stage.${p.stage}`)
    : t(`upload.item.status.${item.status}`);
  const stats = [`${percent}%`];
  if (item.status === "uploading" && p && MOVING.has(p.stage)) {
    if (p.total === 0 && p.loaded > 0) stats.splice(0, 1, formatBytes(p.loaded));
    if (p.speed > 0) stats.push(formatSpeed(p.speed));
    if (p.eta !== null) stats.push(t("upload.item.left", { time: formatDuration(t, p.eta) }));
  }
  const errorMsg = item.error && item.status !== "cancelled"
    ? uploadErrorText(t, item.error)
    : null;

  const aria = (key: string) => t(`upload.item.${key}Label`, { name: item.name });
  const failed = item.status === "failed" || item.status === "cancelled";
  const actions: SmallAction[] = [
    ...(active
      ? [{ key: "cancel", label: t("upload.item.cancel"), aria: aria("cancel"), onClick: onCancel }]
      : []),
    ...(failed
      ? [{ key: "retry", label: t("upload.item.retry"), aria: aria("retry"), onClick: onRetry }]
      : []),
    ...(active ? [] : [{
      key: "remove",
      label: t("upload.item.remove"),
      aria: aria("remove"),
      onClick: onRemove,
      tone: "btn-ghost",
    }]),
  ];
  return (
    <li className={`inset-box upload-item upload-item-${item.status}`}>
      <div className="upload-item-head">
        <span className="upload-item-name" title={item.name}>{item.name}</span>
        <span className="upload-item-size muted">
          {item.size === null ? t("upload.item.sizeUnknown") : formatBytes(item.size)}
        </span>
        <span className={BADGE[item.status]}>{t(`upload.item.status.${item.status}`)}</span>
      </div>
      {item.url && (
        <p className="upload-item-source muted" title={item.url.url}>
          {t("upload.item.fromUrl", { host: hostOf(item.url.url) })}
        </p>
      )}
      {item.status === "ready" && item.resumable && (
        <p className="upload-item-note">{t("upload.item.resumeFound")}</p>
      )}

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
          {p?.parts && <PartsLine parts={p.parts} />}
        </div>
      )}

      {errorMsg && <p className="field-error upload-item-error">{errorMsg}</p>}
      {resumableFailure(item) && <p className="upload-item-note">{t("upload.item.retryResumes")}
      </p>}
      {item.status === "done" && item.result && <ShareResult file={item.result} />}

      <div className="upload-item-actions">
        <SmallButtons actions={actions} />
      </div>
    </li>
  );
}
