/**
 * Large files into a mount in parts (docs/PRODUCT.md §9.1: 5 MiB parts sized by the server, 3 at a
 * time, 3 retries after 1 s × attempt, 5 minutes per part), straight to storage through
 * `fs/multipart/*`: init signs every part, each part is PUT to its URL and its ETag kept, and
 * complete assembles the file. A part URL that expired (403) is signed again. Resuming after a
 * reload: the same file (name, size, lastModified) for the same path is remembered with the shared
 * resume store; list-parts says which parts the server holds, and only the rest are sent.
 * Cancelling aborts the upload on the server.
 */
import { api, ApiError } from "../../api/client.ts";
import type { ProgressReporter } from "../../lib/upload/speed.ts";
import { cancelledOr, sendXhr, sleep } from "../../lib/upload/xhr.ts";
import {
  COMPLETE_TIMEOUT_MS,
  DEFAULT_TUNING,
  isFatal,
  type ListedPart,
  partRange,
  partsToSend,
  type PartUrl,
} from "../../lib/upload/multipart_plan.ts";
import {
  findResume,
  forgetResume,
  type ResumeKey,
  saveResume,
} from "../../lib/upload/resume_store.ts";
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
function resumeKey(file: File, path: string): ResumeKey {
  return {
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
    configId: `fs:${path}`,
  };
}

/** Uploads `file` to `path` in parts; resolves with its entry. Throws ApiError. */
export async function uploadInParts(
  file: File,
  path: string,
  report: ProgressReporter,
  signal: AbortSignal,
  onConflict: "overwrite" | "rename" | "fail" = "fail",
): Promise<FsEntry> {
  const t = DEFAULT_TUNING;
  const key = resumeKey(file, path);
  const ref = { path, upload_id: "" };
  let partSize = 0;
  let total = 0;
  const urls = new Map<number, string>();
  let etags = new Map<number, string>();
  let todo: number[] = [];
  /** Cancelled: nothing is kept, on the server or here. */
  const cancelled = () => {
    forgetResume(ref.upload_id);
    void api("/fs/multipart/abort", { method: "POST", body: ref }).catch(() => {});
    return new ApiError("upload_cancelled", 0, null);
  };

  report.stage("initializing");
  const saved = findResume(key);
  if (saved) {
    try {
      const listed = await api<{ parts: ListedPart[]; part_size: number }>(
        "/fs/multipart/list-parts",
        { method: "POST", body: { path, upload_id: saved.fileId }, signal },
      );
      const plan = partsToSend(listed.parts, saved.partSize, saved.totalParts, file.size);
      ref.upload_id = saved.fileId;
      [partSize, total, etags, todo] = [saved.partSize, saved.totalParts, plan.done, plan.missing];
    } catch {
      if (signal.aborted) throw new ApiError("upload_cancelled", 0, null);
      // Gone from the server (completed, aborted or expired): start afresh.
      forgetResume(saved.fileId);
    }
  }
  if (!ref.upload_id) {
    let init: Init;
    try {
      // Not cut short by a cancel: an init the server already carried out would leave an upload
      // nobody knows the id of. Cancelled meanwhile, it is aborted right after.
      init = await api<Init>("/fs/multipart/init", {
        method: "POST",
        body: {
          path,
          size: file.size,
          contentType: file.type || undefined,
          on_conflict: onConflict,
        },
      });
    } catch (err) {
      throw cancelledOr(err, signal, "multipart_init_failed");
    }
    ref.upload_id = init.upload_id;
    // "Keep both" may have placed the file under a numbered name.
    ref.path = init.path;
    if (signal.aborted) throw cancelled();
    [partSize, total] = [init.part_size, init.total_parts];
    for (const p of init.presigned_urls) urls.set(p.partNumber, p.url);
    todo = Array.from({ length: total }, (_, i) => i + 1);
    saveResume({
      ...key,
      fileId: init.upload_id,
      partSize,
      totalParts: total,
      savedAt: Date.now(),
    });
  }

  const refresh = async (numbers: number[]) => {
    const res = await api<{ presigned_urls: PartUrl[] }>("/fs/multipart/refresh-urls", {
      method: "POST",
      body: { ...ref, part_numbers: numbers },
      signal,
    });
    for (const p of res.presigned_urls) urls.set(p.partNumber, p.url);
  };
  const missingUrls = todo.filter((n) => !urls.has(n));
  if (missingUrls.length) await refresh(missingUrls);

  // Bytes per part, for the progress bar (parts already stored count as sent).
  const sent = Array.from({ length: total }, (_, i) => {
    const [start, end] = partRange(i + 1, partSize, file.size);
    return etags.has(i + 1) ? end - start : 0;
  });
  const emit = () => report.bytes(sent.reduce((a, b) => a + b, 0));
  report.phase(0, 100, file.size);
  report.stage("uploading");
  emit();

  const sendPart = async (n: number) => {
    const [start, end] = partRange(n, partSize, file.size);
    for (let attempt = 1;; attempt++) {
      try {
        const res = await sendXhr({
          method: "PUT",
          url: urls.get(n)!,
          body: file.slice(start, end),
          signal,
          idleMs: t.idleMs,
          totalMs: t.partTimeoutMs,
          onSent: (loaded) => {
            sent[n - 1] = loaded;
            emit();
          },
        });
        if (res.status === 404) throw new ApiError("upload_aborted", 404, null);
        if (res.status < 200 || res.status >= 300) {
          throw new ApiError("upload_failed", res.status, null, null, { status: res.status });
        }
        const etag = res.header("ETag");
        if (!etag) throw new ApiError("etag_missing", res.status, null);
        etags.set(n, etag);
        sent[n - 1] = end - start;
        emit();
        return;
      } catch (err) {
        sent[n - 1] = 0;
        emit();
        if (signal.aborted || isFatal(err) || attempt > t.retries) throw err;
        await sleep(t.retryDelayMs * attempt, signal);
        if (err instanceof ApiError && err.status === 403) await refresh([n]);
      }
    }
  };

  const queue = [...todo];
  let failure: unknown = null;
  const worker = async () => {
    while (queue.length && failure === null) {
      const n = queue.shift()!;
      try {
        await sendPart(n);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(t.concurrency, queue.length) }, worker));
    if (signal.aborted) throw new ApiError("upload_cancelled", 0, null);
    if (failure !== null) throw failure;
    report.stage("completing");
    const parts = [...etags].sort((a, b) => a[0] - b[0])
      .map(([partNumber, ETag]) => ({ partNumber, ETag }));
    const entry = await api<FsEntry>("/fs/multipart/complete", {
      method: "POST",
      body: { ...ref, parts },
      timeoutMs: COMPLETE_TIMEOUT_MS,
    }).catch((err) => {
      throw cancelledOr(err, signal, "multipart_complete_failed");
    });
    forgetResume(ref.upload_id);
    report.stage("completed");
    return entry;
  } catch (err) {
    if (signal.aborted) throw cancelled();
    // Failed parts: Retry resumes from what the server holds.
    throw err;
  }
}
