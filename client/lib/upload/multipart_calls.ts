/**
 * The requests one multipart upload makes (docs/PRODUCT.md §4.3): init, list-parts,
 * refresh-urls, complete and abort against the API, and the PUT of one part to its presigned
 * URL. Each turns its failure into an ApiError with a catalogue code; the order, the retries and
 * the progress live in multipart.ts.
 */
import { api, ApiError } from "../../api/client.ts";
import { reserveFields, shareFields, type SimpleUpload, uploadSize } from "./form.ts";
import type { FileView } from "./types.ts";
import { cancelledOr, sendXhr } from "./xhr.ts";
import {
  COMPLETE_TIMEOUT_MS,
  type InitResult,
  type ListResult,
  type MultipartApi,
  type PartUrl,
} from "./multipart_plan.ts";

/** The upload a request belongs to: what is sent, and the routes of its flow. */
export type MultipartRequest = SimpleUpload & { routes: MultipartApi };

/** Starts the upload; the answer signs every part. Throws multipart_init_failed (or cancelled). */
export async function initMultipart(u: MultipartRequest, signal: AbortSignal): Promise<InitResult> {
  try {
    return await api<InitResult>(u.routes.init, {
      method: "POST",
      body: {
        filename: u.filename,
        size: uploadSize(u),
        mimetype: u.mimetype,
        s3_config_id: u.options.s3ConfigId || undefined,
        slug: u.options.slug || undefined,
        ...reserveFields(u.options),
      },
      signal,
    });
  } catch (err) {
    throw cancelledOr(err, signal, "multipart_init_failed");
  }
}

/** The parts the server holds for `fileId`; throws the server's ApiError as it is. */
export function listMultipartParts(
  routes: MultipartApi,
  fileId: string,
  signal: AbortSignal,
): Promise<ListResult> {
  return api<ListResult>(routes.listParts, {
    method: "POST",
    body: { file_id: fileId },
    signal,
  });
}

/** Signs parts `numbers` again. Throws presign_failed (or cancelled). */
export async function refreshPartUrls(
  routes: MultipartApi,
  fileId: string,
  numbers: number[],
  signal: AbortSignal,
): Promise<PartUrl[]> {
  try {
    const res = await api<{ presigned_urls: PartUrl[] }>(routes.refreshUrls, {
      method: "POST",
      body: { file_id: fileId, part_numbers: numbers },
      signal,
    });
    return res.presigned_urls;
  } catch (err) {
    throw cancelledOr(err, signal, "presign_failed");
  }
}

/** Assembles the parts into the share. Throws multipart_complete_failed (or cancelled). */
export async function completeMultipart(
  u: MultipartRequest,
  fileId: string,
  parts: { partNumber: number; ETag: string }[],
  signal: AbortSignal,
): Promise<FileView> {
  try {
    return await api<FileView>(u.routes.complete, {
      method: "POST",
      body: {
        file_id: fileId,
        parts,
        filename: u.filename,
        mimetype: u.mimetype,
        size: uploadSize(u),
        ...shareFields(u.options),
      },
      signal,
      timeoutMs: COMPLETE_TIMEOUT_MS,
    });
  } catch (err) {
    throw cancelledOr(err, signal, "multipart_complete_failed");
  }
}

/** Discards the upload on the server, in the background; a failure is ignored. */
export function abortMultipart(routes: MultipartApi, fileId: string): void {
  void api(routes.abort, { method: "POST", body: { file_id: fileId } }).catch(() => {});
}

/**
 * PUTs one part to its presigned URL and returns its ETag. Throws upload_aborted (404),
 * upload_failed, etag_missing or upload_network_error (the last two say whether the URL was
 * another origin, where CORS is the likely cause).
 */
export async function putPart(
  url: string,
  body: Blob,
  o: { signal: AbortSignal; idleMs: number; totalMs: number; onSent: (loaded: number) => void },
): Promise<string> {
  const direct = new URL(url, globalThis.location?.href).origin !== globalThis.location?.origin;
  const res = await sendXhr({ method: "PUT", url, body, ...o }).catch((err) => {
    if (err instanceof ApiError && err.code === "upload_network_error") {
      throw new ApiError(err.code, 0, null, null, { direct });
    }
    throw err;
  });
  // The upload is gone (aborted elsewhere, or expired).
  if (res.status === 404) throw new ApiError("upload_aborted", 404, null);
  if (res.status < 200 || res.status >= 300) {
    throw new ApiError("upload_failed", res.status, null, null, { status: res.status });
  }
  const etag = res.header("ETag");
  // A bucket whose CORS rules do not expose ETag hides it from the browser.
  if (!etag) throw new ApiError("etag_missing", res.status, null, null, { direct });
  return etag;
}
