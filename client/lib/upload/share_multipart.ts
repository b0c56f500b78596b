/**
 * The share flow of a multipart upload (docs/PRODUCT.md §4.3): init, list-parts, refresh-urls,
 * complete and abort against /s3/multipart/* (or /url/multipart/* for URL uploads), each turning
 * its failure into an ApiError with a catalogue code. The engine, multipart.ts, sends the parts.
 */
import { api } from "../../api/client.ts";
import { reserveFields, shareFields, type SimpleUpload, uploadSize } from "./form.ts";
import { blobSource, MultipartUpload } from "./multipart.ts";
import type { ResumeKey } from "./resume_store.ts";
import type { ProgressReporter } from "./speed.ts";
import type { FileView } from "./types.ts";
import { cancelledOr } from "./xhr.ts";
import {
  COMPLETE_TIMEOUT_MS,
  type ListResult,
  type MultipartFlow,
  type PartUrl,
} from "./multipart_plan.ts";

/** The routes of one share flow: /s3/multipart/* for files, /url/* for URL uploads. */
export type MultipartApi = {
  init: string;
  complete: string;
  /** Discards the upload on the server. */
  abort: string;
  listParts: string;
  refreshUrls: string;
};
export const S3_MULTIPART: MultipartApi = {
  init: "/s3/multipart/init",
  complete: "/s3/multipart/complete",
  abort: "/s3/multipart/abort",
  listParts: "/s3/multipart/list-parts",
  refreshUrls: "/s3/multipart/refresh-urls",
};
export const URL_MULTIPART: MultipartApi = {
  init: "/url/multipart/init",
  complete: "/url/multipart/complete",
  abort: "/url/cancel",
  listParts: "/s3/multipart/list-parts",
  refreshUrls: "/s3/multipart/refresh-urls",
};

/** What init answers (the URLs of every part). */
type InitResult = {
  file_id: string;
  part_size: number;
  total_parts: number;
  presigned_urls: PartUrl[];
};

/** The requests of one share upload `u` over `routes`. */
export function shareMultipart(u: SimpleUpload, routes: MultipartApi): MultipartFlow<FileView> {
  return {
    async init() {
      try {
        const res = await api<InitResult>(routes.init, {
          method: "POST",
          body: {
            filename: u.filename,
            size: uploadSize(u),
            mimetype: u.mimetype,
            s3_config_id: u.options.s3ConfigId || undefined,
            slug: u.options.slug || undefined,
            ...reserveFields(u.options),
          },
        });
        const { file_id: id, part_size: partSize, total_parts: totalParts } = res;
        return { id, partSize, totalParts, urls: res.presigned_urls };
      } catch (err) {
        throw cancelledOr(err, undefined, "multipart_init_failed");
      }
    },
    listParts: (fileId, signal) =>
      api<ListResult>(routes.listParts, { method: "POST", body: { file_id: fileId }, signal }),
    async refreshUrls(fileId, numbers, signal) {
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
    },
    async complete(fileId, parts, signal) {
      try {
        return await api<FileView>(routes.complete, {
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
    },
    abort(fileId) {
      void api(routes.abort, { method: "POST", body: { file_id: fileId } }).catch(() => {});
    },
  };
}

/**
 * Uploads `u` in parts through the share flow and resolves with the share; resumable when
 * `resumeKey` is set. Throws what MultipartUpload.run does.
 */
export function uploadViaMultipart(
  u: SimpleUpload,
  report: ProgressReporter,
  o: { routes: MultipartApi; resumeKey: ResumeKey | null; span?: [number, number] },
): Promise<FileView> {
  return new MultipartUpload({
    flow: shareMultipart(u, o.routes),
    source: u.source ?? blobSource(u.blob),
    signal: u.signal,
    resumeKey: o.resumeKey,
    span: o.span,
  }, report).run();
}
