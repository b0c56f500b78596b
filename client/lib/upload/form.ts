/**
 * The two single-request flows (docs/PRODUCT.md §7.3):
 * - form: one multipart POST /api/upload with the share fields first and the file last; the
 *   server reads fields in any order, and streams the file straight through when the storage
 *   config (`s3_config_id`, empty for the default) came before it;
 * - presign: POST /api/s3/presign (or /url/presign), a raw PUT of the bytes to the returned URL
 *   (straight to the bucket, or a signed Cubby URL for local storage), then POST /api/s3/commit
 *   (or /url/commit). A failed or cancelled presigned upload drops its pending record.
 */
import { api, apiBase, ApiError } from "../../api/client.ts";
import { RAW_UPLOAD_TIMEOUT_MS } from "../../../shared/constants.ts";
import type { ProgressReporter } from "./speed.ts";
import type { ByteSource, FileView, PresignResult, ShareOptions, UploadBlob } from "./types.ts";
import { authHeaders, cancelledOr, envelopeResult, sendXhr } from "./xhr.ts";

/** One upload's bytes, name and type, with its options and cancel signal. */
export type SimpleUpload = {
  blob: UploadBlob;
  /** Multipart only: the bytes to send when they are made on demand (then not `blob`'s). */
  source?: ByteSource;
  filename: string;
  mimetype: string;
  options: ShareOptions;
  signal?: AbortSignal;
  idleTimeoutMs?: number;
};

/** The share fields of a commit, multipart complete or form (docs/PRODUCT.md §3.11). */
export function shareFields(o: ShareOptions) {
  return {
    s3_config_id: o.s3ConfigId || undefined,
    slug: o.slug || undefined,
    remark: o.remark || undefined,
    password: o.password || undefined,
    expires_in: o.expiresIn ?? 0,
    max_views: o.maxViews ?? 0,
    use_proxy: o.useProxy,
    e2e: o.e2e,
  };
}

/** What an upload's reservation (presign, multipart init) needs to know of its encryption. */
export function reserveFields(o: ShareOptions) {
  return o.e2e ? { e2e: o.e2e, password: o.password } : {};
}

/** The bytes an upload sends. */
export function uploadSize(u: SimpleUpload): number {
  return u.source?.size ?? u.blob.size;
}

/** Drops a pending upload (multipart or presigned) on the server; never throws. */
export async function cancelPending(fileId: string): Promise<void> {
  await api("/url/cancel", { method: "POST", body: { file_id: fileId } }).catch(() => {});
}

/** Uploads through Cubby with one multipart POST /api/upload (file field last). */
export async function uploadViaForm(u: SimpleUpload, report: ProgressReporter): Promise<FileView> {
  const form = new FormData();
  const fields = { ...shareFields(u.options) };
  form.append("s3_config_id", fields.s3_config_id ?? "");
  delete fields.s3_config_id;
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) form.append(k, typeof v === "object" ? JSON.stringify(v) : String(v));
  }
  form.append("size", String(u.blob.size));
  form.append("filename", u.filename);
  form.append("mimetype", u.mimetype);
  form.append("file", u.blob, u.filename);

  const { headers, sentAuth } = authHeaders();
  const fileSize = u.blob.size;
  report.phase(0, 100, fileSize);
  report.stage("uploading");
  const res = await sendXhr({
    method: "POST",
    url: `${apiBase()}/api/upload`,
    body: form,
    headers,
    signal: u.signal,
    idleMs: u.idleTimeoutMs ?? RAW_UPLOAD_TIMEOUT_MS,
    // The body also holds the other fields; scale its progress to the file's size.
    onSent: (loaded, total) => report.bytes(total > 0 ? (loaded / total) * fileSize : fileSize),
    onUploaded: () => report.stage("processing"),
  });
  const view = envelopeResult<FileView>(res, sentAuth);
  report.stage("completed");
  return view;
}

/** The presign and commit routes: /s3/* for files, /url/* for URL uploads. */
export type PresignApi = { presign: string; commit: string };
export const S3_PRESIGN: PresignApi = { presign: "/s3/presign", commit: "/s3/commit" };
export const URL_PRESIGN: PresignApi = { presign: "/url/presign", commit: "/url/commit" };

/** Uploads with presign → PUT → commit, over [from, to] % of the bar. */
export async function uploadViaPresign(
  u: SimpleUpload,
  report: ProgressReporter,
  routes: PresignApi = S3_PRESIGN,
  span: [number, number] = [0, 100],
): Promise<FileView> {
  const o = u.options;
  report.stage("initializing");
  let presigned: PresignResult;
  try {
    presigned = await api<PresignResult>(routes.presign, {
      method: "POST",
      body: {
        filename: u.filename,
        size: u.blob.size,
        mimetype: u.mimetype,
        s3_config_id: o.s3ConfigId || undefined,
        slug: o.slug || undefined,
        ...reserveFields(o),
      },
      signal: u.signal,
    });
  } catch (err) {
    throw cancelledOr(err, u.signal, "presign_failed");
  }

  try {
    report.phase(span[0], span[1], u.blob.size);
    report.stage("uploading");
    const res = await sendXhr({
      method: "PUT",
      url: presigned.upload_url,
      body: u.blob,
      headers: { "Content-Type": presigned.contentType },
      signal: u.signal,
      idleMs: u.idleTimeoutMs ?? RAW_UPLOAD_TIMEOUT_MS,
      onSent: (loaded) => report.bytes(loaded),
    }).catch((err) => {
      // A browser PUT straight to a bucket fails like a network error when CORS is missing.
      if (err instanceof ApiError && err.code === "upload_network_error") {
        throw new ApiError(err.code, 0, null, null, {
          direct: presigned.provider_type !== "local",
        });
      }
      throw err;
    });
    if (res.status < 200 || res.status >= 300) {
      throw new ApiError("upload_failed", res.status, null, null, { status: res.status });
    }
    const etag = res.header("ETag")?.replaceAll('"', "") || undefined;

    report.stage("completing");
    const view = await api<FileView>(routes.commit, {
      method: "POST",
      body: {
        file_id: presigned.file_id,
        storage_path: presigned.storage_path,
        s3_url: presigned.s3_url,
        filename: u.filename,
        mimetype: presigned.contentType,
        size: u.blob.size,
        etag,
        ...shareFields(o),
      },
      signal: u.signal,
    }).catch((err) => {
      throw cancelledOr(err, u.signal, "upload_failed");
    });
    report.stage("completed");
    return view;
  } catch (err) {
    // docs/PRODUCT.md §7.3: a failed direct upload leaves no record (nor object) behind.
    void cancelPending(presigned.file_id);
    throw err;
  }
}
