/**
 * Browser uploads with progress (docs/PRODUCT.md §4.3, §7.3, §7.7): the one entry point,
 * `uploadFile`, and what the screens need around it. The flows live in client/lib/upload/:
 * - form.ts: one POST /api/upload through Cubby, or presign → PUT → commit;
 * - share_multipart.ts: 5 MiB parts to presigned URLs through multipart.ts (3 at a time with
 *   retries, resumable after a reload: resume_store.ts keeps what is needed in localStorage);
 * - url.ts: a URL downloaded by the browser (directly or through the guarded proxy), then
 *   uploaded; progress 0–49 % for the download and 50–99 % for the upload;
 * - speed.ts: speed, time left and progress snapshots; xhr.ts: transfers with progress.
 * Cancelling rejects with `upload_cancelled`; other failures are ApiErrors with catalogue codes.
 */
import { api, ApiError } from "../api/client.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import { ProgressReporter } from "./upload/speed.ts";
import { uploadViaForm, uploadViaPresign } from "./upload/form.ts";
import { S3_MULTIPART, uploadViaMultipart } from "./upload/share_multipart.ts";
import { forgetResume, resumeKeyOf } from "./upload/resume_store.ts";
import { uploadFromUrl } from "./upload/url.ts";
import type { FileView, UploadRequest } from "./upload/types.ts";

export * from "./upload/types.ts";
export { estimateSecondsLeft, SpeedMeter } from "./upload/speed.ts";
export { fetchUrlInfo } from "./upload/url.ts";
export { hasResume } from "./upload/resume_store.ts";

/** Files larger than this go up in parts (docs/PRODUCT.md §9.1: parts are 5 MiB). */
export const MULTIPART_THRESHOLD = 10 * 1024 * 1024;
/** A localStorage override of the threshold in bytes, for tests and slow links. */
export const MULTIPART_THRESHOLD_KEY = "cubby.multipartThreshold";

/** The multipart threshold in bytes: the localStorage override, else MULTIPART_THRESHOLD. */
export function multipartThreshold(): number {
  try {
    const v = Number(globalThis.localStorage?.getItem(MULTIPART_THRESHOLD_KEY));
    return Number.isSafeInteger(v) && v > 0 ? v : MULTIPART_THRESHOLD;
  } catch {
    return MULTIPART_THRESHOLD;
  }
}

/**
 * Uploads one file, or one URL, and resolves with the new share. Progress goes to
 * `onProgress`. Throws ApiError: upload_cancelled, upload_network_error, request_timeout,
 * upload_failed, presign_failed, multipart_init_failed, multipart_complete_failed,
 * parts_failed, etag_missing, upload_aborted, url_invalid, url_forbidden, url_unreachable, or
 * the server's code (file_too_large, storage_quota_exceeded, slug_taken…).
 */
export async function uploadFile(req: UploadRequest): Promise<FileView> {
  const size = req.file?.size ?? req.url?.size ?? 0;
  const report = new ProgressReporter(size, req.onProgress);
  report.stage("starting");
  if (req.signal?.aborted) throw new ApiError("upload_cancelled", 0, null);
  const threshold = req.multipartThreshold ?? multipartThreshold();
  if (req.url) {
    return await uploadFromUrl({ ...req, url: req.url, multipartThreshold: threshold }, report);
  }
  const file = req.file;
  if (!file) throw new ApiError("file_required", 400, null);
  if (req.encrypt) {
    // Loaded when used: the format's code stays out of the upload screen's first load.
    const { uploadEncrypted } = await import("./upload/e2e_upload.ts");
    return await uploadEncrypted({ ...req, file }, report, threshold);
  }
  const filename = (req.filename ?? file.name ?? "").trim() || "file";
  const upload = {
    blob: file,
    filename,
    mimetype: contentTypeFor(filename, file.type),
    options: req.options,
    signal: req.signal,
    idleTimeoutMs: req.idleTimeoutMs,
  };
  if (req.method === "multipart") {
    const resumeKey = resumeKeyOf(file, filename, req.options.s3ConfigId);
    return await uploadViaMultipart(upload, report, { routes: S3_MULTIPART, resumeKey });
  }
  return req.method === "presign"
    ? await uploadViaPresign(upload, report)
    : await uploadViaForm(upload, report);
}

/**
 * Discards what a failed upload left resumable on the server (its parts), when the user
 * removes it instead of retrying. Does nothing for other errors.
 */
export function discardUpload(err: unknown): void {
  if (!(err instanceof ApiError) || !err.params.resumable) return;
  const fileId = String(err.params.fileId ?? "");
  if (!fileId) return;
  forgetResume(fileId);
  void api(S3_MULTIPART.abort, { method: "POST", body: { file_id: fileId } }).catch(() => {});
}
