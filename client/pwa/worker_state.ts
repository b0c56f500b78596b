/**
 * The service worker's state as the page sees it (docs/PRODUCT.md §4.4: unknown, installing,
 * waiting, active, redundant) and the update card's actions. It holds no workbox code, so server
 * rendering can import it; sw_registration.ts (browser only) feeds it.
 */
import { createStore, useStore } from "./store.ts";
import { SW_CACHES } from "../../shared/pwa.ts";

export type WorkerStatus = "unknown" | "installing" | "waiting" | "active" | "redundant";
export type WorkerState = { status: WorkerStatus; updateAvailable: boolean };

const INITIAL: WorkerState = { status: "unknown", updateAvailable: false };
/** The state store; written by sw_registration.ts. */
export const workerStore = createStore<WorkerState>(INITIAL);
let activateWaiting: (() => void) | null = null;

/** Sets what accepting an update does (activate the waiting worker, then reload). */
export function onUpdateAccepted(handler: () => void) {
  activateWaiting = handler;
}

/** Accepts the update: hides the card and activates the waiting worker. */
export function acceptUpdate() {
  workerStore.set({ updateAvailable: false });
  activateWaiting?.();
}

/** Hides the update card until the next page load. */
export function postponeUpdate() {
  workerStore.set({ updateAvailable: false });
}

/** Drops cached share pages and their reads (on logout), straight through the Cache API. */
export async function clearUserCaches(): Promise<void> {
  if ("caches" in globalThis) await caches.delete(SW_CACHES.shares);
}

/** React hook: the worker's state. */
export function useWorkerState(): WorkerState {
  return useStore(workerStore, INITIAL);
}
