/**
 * The mount flow of a multipart upload: large files go into a mount in parts, straight to
 * storage, through `fs/multipart/*`. Init places the file (a numbered name when keeping both,
 * `on_conflict`) and signs every part; the shared engine (lib/upload/multipart.ts) sends the
 * parts, retries them, resumes after a reload and cancels. The same file (name, size,
 * lastModified) bound for the same path is one resumable upload.
 */
import { api } from "../../api/client.ts";
import type { ProgressReporter } from "../../lib/upload/speed.ts";
import { cancelledOr } from "../../lib/upload/xhr.ts";
import { blobSource, MultipartUpload } from "../../lib/upload/multipart.ts";
import {
  COMPLETE_TIMEOUT_MS,
  type ListResult,
  type MultipartFlow,
  type PartUrl,
} from "../../lib/upload/multipart_plan.ts";
import type { ResumeKey } from "../../lib/upload/resume_store.ts";
import type { FsEntry } from "./explorer_api.ts";

type Init = {
  upload_id: string;
  /** Where the file goes (a numbered name when keeping both). */
  path: string;
  part_size: number;
  total_parts: number;
  presigned_urls: PartUrl[];
};

/** The resume identity of a file bound for `path` (the resume store's config slot holds it). */
export function fsResumeKey(file: File, path: string): ResumeKey {
  return {
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
    configId: `fs:${path}`,
  };
}

/** The requests of one upload of `file` to `path`. */
export function fsMultipart(
  file: File,
  path: string,
  onConflict: "overwrite" | "rename" | "fail",
): MultipartFlow<FsEntry> {
  /** The path the upload is bound to; init may number its name (keep both). */
  let target = path;
  const ref = (uploadId: string) => ({ path: target, upload_id: uploadId });
  return {
    async init() {
      try {
        const res = await api<Init>("/fs/multipart/init", {
          method: "POST",
          body: {
            path,
            size: file.size,
            contentType: file.type || undefined,
            on_conflict: onConflict,
          },
        });
        target = res.path;
        const { upload_id: id, part_size: partSize, total_parts: totalParts } = res;
        return { id, partSize, totalParts, urls: res.presigned_urls };
      } catch (err) {
        throw cancelledOr(err, undefined, "multipart_init_failed");
      }
    },
    listParts: (uploadId, signal) =>
      api<ListResult>("/fs/multipart/list-parts", { method: "POST", body: ref(uploadId), signal }),
    async refreshUrls(uploadId, numbers, signal) {
      try {
        const res = await api<{ presigned_urls: PartUrl[] }>("/fs/multipart/refresh-urls", {
          method: "POST",
          body: { ...ref(uploadId), part_numbers: numbers },
          signal,
        });
        return res.presigned_urls;
      } catch (err) {
        throw cancelledOr(err, signal, "presign_failed");
      }
    },
    complete: (uploadId, parts) =>
      // Runs to its end even when cancelled; the engine then aborts the upload by its id.
      api<FsEntry>("/fs/multipart/complete", {
        method: "POST",
        body: { ...ref(uploadId), parts },
        timeoutMs: COMPLETE_TIMEOUT_MS,
      }).catch((err) => {
        throw cancelledOr(err, undefined, "multipart_complete_failed");
      }),
    abort(uploadId) {
      void api("/fs/multipart/abort", { method: "POST", body: ref(uploadId) }).catch(() => {});
    },
  };
}

/** Uploads `file` to `path` in parts; resolves with its entry. Throws ApiError. */
export function uploadInParts(
  file: File,
  path: string,
  report: ProgressReporter,
  signal: AbortSignal,
  onConflict: "overwrite" | "rename" | "fail" = "fail",
): Promise<FsEntry> {
  return new MultipartUpload({
    flow: fsMultipart(file, path, onConflict),
    source: blobSource(file),
    signal,
    resumeKey: fsResumeKey(file, path),
  }, report).run();
}
