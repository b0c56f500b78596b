/**
 * Background Sync of the offline queue (docs/PRODUCT.md §4.5): the page registers the tag
 * `sync-offline-queue` when it queues a write; the browser fires `sync` once it is back online
 * and the worker replays the queue from IndexedDB (Dexie works in a worker). When items are
 * left because the network failed again, the promise rejects, so the browser retries later.
 */
import { replayQueue, SYNC_TAG } from "../offline/queue.ts";
import { sw } from "./scope.ts";

type SyncEvent = Event & { tag: string; waitUntil(p: Promise<unknown>): void };

/** Starts replaying the queue on the sync tag. */
export function listenForSync() {
  sw.addEventListener("sync", (event) => {
    const e = event as SyncEvent;
    if (e.tag !== SYNC_TAG) return;
    e.waitUntil(
      replayQueue(location.origin).then((result) => {
        if (result.remaining > 0) throw new Error(`${result.remaining} queued writes left`);
      }),
    );
  });
}
