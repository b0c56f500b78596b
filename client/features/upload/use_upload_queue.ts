/**
 * React glue for UploadQueue: one queue per screen, stopped when the screen goes away (a
 * multipart upload stopped that way resumes when its file is chosen again).
 */
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { type QueueItem, type SettledEvent, UploadQueue } from "./upload_queue.ts";
import { discardUpload, uploadFile } from "../../lib/uploader.ts";

/** Uploads run 1–2 at a time (the brief: a queue uploaded one or two at a time). */
export const UPLOAD_CONCURRENCY = 2;

/** The screen's queue and its items; `onSettled` sees every finished, failed or cancelled item. */
export function useUploadQueue(
  onSettled: (e: SettledEvent) => void,
): { queue: UploadQueue; items: QueueItem[] } {
  const settledRef = useRef(onSettled);
  settledRef.current = onSettled;
  const [queue] = useState(
    () =>
      new UploadQueue(
        uploadFile,
        UPLOAD_CONCURRENCY,
        (e) => settledRef.current(e),
        discardUpload,
      ),
  );
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  // Leaving the screen stops the uploads; multipart ones stay resumable.
  useEffect(() => () => queue.pauseAll(), [queue]);

  // Leaving the page would abort running uploads: ask first.
  const busy = items.some((i) => i.status === "uploading" || i.status === "waiting");
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    globalThis.addEventListener("beforeunload", warn);
    return () => globalThis.removeEventListener("beforeunload", warn);
  }, [busy]);

  return { queue, items };
}
