/**
 * Uploads into mount folders with progress (speed and time left from the shared uploader's
 * ProgressReporter). A file below the multipart threshold streams through one
 * `POST /api/fs/upload` (fields first, the file last, so the server writes it straight to
 * storage); a larger one goes up in parts straight to storage (fs_multipart.ts). Two files run
 * at a time. A file can be cancelled, retried (a multipart retry resumes) or dismissed;
 * finished files are reported so the listing can show them. Each carries the person's answer
 * for a file already there (see ConflictDialog); unasked, an upload never overwrites ("fail").
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { apiBase, ApiError } from "../../api/client.ts";
import { RAW_UPLOAD_TIMEOUT_MS } from "../../../shared/constants.ts";
import { ProgressReporter } from "../../lib/upload/speed.ts";
import { authHeaders, envelopeResult, sendXhr } from "../../lib/upload/xhr.ts";
import { multipartThreshold, type UploadProgress } from "../../lib/uploader.ts";
import type { FsEntry } from "./explorer_api.ts";
import { joinPath } from "./explorer_paths.ts";
import { uploadInParts } from "./fs_multipart.ts";

export type UploadStatus = "queued" | "uploading" | "done" | "failed" | "cancelled";

/** What an upload does with a file already at its path (the person's answer, or "fail"). */
export type UploadConflict = "overwrite" | "rename" | "fail";

export type ExplorerUpload = {
  id: number;
  file: File;
  /** The folder it goes into. */
  dir: string;
  onConflict: UploadConflict;
  status: UploadStatus;
  progress: UploadProgress | null;
  error: unknown;
};

const CONCURRENCY = 2;
let nextId = 1;

/** Sends one file into `dir` (in parts when large); resolves with its entry. Throws ApiError. */
export async function uploadToFolder(
  file: File,
  dir: string,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
  onConflict: UploadConflict = "fail",
): Promise<FsEntry> {
  const report = new ProgressReporter(file.size, onProgress);
  report.stage("starting");
  if (file.size >= multipartThreshold()) {
    return await uploadInParts(file, joinPath(dir, file.name), report, signal, onConflict);
  }
  const form = new FormData();
  form.append("path", dir);
  form.append("size", String(file.size));
  form.append("on_conflict", onConflict);
  form.append("filename", file.name); // with these before the file, it streams through
  form.append("file", file, file.name);
  const { headers, sentAuth } = authHeaders();
  report.phase(0, 100, file.size);
  report.stage("uploading");
  const res = await sendXhr({
    method: "POST",
    url: `${apiBase()}/api/fs/upload`,
    body: form,
    headers,
    signal,
    idleMs: RAW_UPLOAD_TIMEOUT_MS,
    onSent: (loaded, total) => report.bytes(total > 0 ? (loaded / total) * file.size : 0),
    onUploaded: () => report.stage("processing"),
  });
  const entry = envelopeResult<FsEntry>(res, sentAuth);
  report.stage("completed");
  return entry;
}

export function useUploads(onDone: (entry: FsEntry) => void) {
  const [items, setItems] = useState<ExplorerUpload[]>([]);
  const aborts = useRef(new Map<number, AbortController>());
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  const patch = useCallback((id: number, p: Partial<ExplorerUpload>) => {
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...p } : i)));
  }, []);

  const run = useCallback(async (item: ExplorerUpload) => {
    const ctrl = new AbortController();
    aborts.current.set(item.id, ctrl);
    patch(item.id, { status: "uploading", error: null, progress: null });
    try {
      const entry = await uploadToFolder(
        item.file,
        item.dir,
        (progress) => patch(item.id, { progress }),
        ctrl.signal,
        item.onConflict,
      );
      patch(item.id, { status: "done" });
      onDoneRef.current(entry);
    } catch (err) {
      const cancelled = err instanceof ApiError && err.code === "upload_cancelled";
      patch(item.id, { status: cancelled ? "cancelled" : "failed", error: err });
    } finally {
      aborts.current.delete(item.id);
    }
  }, [patch]);

  // Start queued files while fewer than CONCURRENCY are running.
  useEffect(() => {
    const running = items.filter((i) => i.status === "uploading").length;
    const queued = items.filter((i) => i.status === "queued").slice(0, CONCURRENCY - running);
    for (const item of queued) void run(item);
  }, [items, run]);

  useEffect(() => () => aborts.current.forEach((c) => c.abort()), []);

  /** Queues files for a folder; `onConflict` is what to do with a file already there. */
  const add = useCallback((files: File[], dir: string, onConflict: UploadConflict = "fail") => {
    const added = files.map((file): ExplorerUpload => ({
      id: nextId++,
      file,
      dir,
      onConflict,
      status: "queued",
      progress: null,
      error: null,
    }));
    setItems((list) => [...list, ...added]);
  }, []);

  const cancel = useCallback((id: number) => {
    const ctrl = aborts.current.get(id);
    if (ctrl) ctrl.abort();
    else patch(id, { status: "cancelled" });
  }, [patch]);

  const retry = useCallback((id: number) => patch(id, { status: "queued", error: null }), [patch]);
  const dismiss = useCallback((id: number) => {
    aborts.current.get(id)?.abort();
    setItems((list) => list.filter((i) => i.id !== id));
  }, []);
  const clearFinished = useCallback(() => {
    setItems((list) => list.filter((i) => i.status === "queued" || i.status === "uploading"));
  }, []);

  return { items, add, cancel, retry, dismiss, clearFinished };
}
