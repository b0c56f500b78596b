/**
 * Registers the service worker through workbox-window and tracks it (spec §4: unknown,
 * installing, waiting, active, redundant). A waiting worker raises the update card; accepting
 * activates it (SKIP_WAITING) and reloads once it controls the page, after UPDATE_RELOAD_DELAY_MS.
 * When the first worker takes control, it is asked to cache what the page already loaded, so a
 * first visit is readable offline too.
 */
import { Workbox } from "workbox-window";
import { createStore, useStore } from "./store.ts";
import { SW_CACHES, UPDATE_RELOAD_DELAY_MS } from "../../shared/pwa.ts";

export type WorkerStatus = "unknown" | "installing" | "waiting" | "active" | "redundant";
export type WorkerState = { status: WorkerStatus; updateAvailable: boolean };

const INITIAL: WorkerState = { status: "unknown", updateAvailable: false };
const store = createStore<WorkerState>(INITIAL);
let wb: Workbox | null = null;
let updateAccepted = false;

/** Same-origin URLs the page has loaded (document and resources), outside the API. */
function loadedUrls(): string[] {
  const urls = [location.href, ...performance.getEntriesByType("resource").map((e) => e.name)];
  return urls.filter((u) => {
    const url = new URL(u);
    return url.origin === location.origin && !url.pathname.startsWith("/api/");
  });
}

/** Starts the service worker where the browser supports it (secure contexts only). */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext || wb) return;
  wb = new Workbox("/sw.js", { scope: "/" });
  wb.addEventListener("installing", () => store.set({ status: "installing" }));
  wb.addEventListener("waiting", () => store.set({ status: "waiting", updateAvailable: true }));
  wb.addEventListener("activated", () => store.set({ status: "active" }));
  wb.addEventListener("redundant", () => store.set({ status: "redundant" }));
  wb.addEventListener("controlling", (event) => {
    store.set({ status: "active" });
    if (updateAccepted) {
      setTimeout(() => location.reload(), UPDATE_RELOAD_DELAY_MS);
    } else if (!event.isUpdate) {
      wb?.messageSW({ type: "CACHE_URLS", payload: { urlsToCache: loadedUrls() } });
    }
  });
  wb.register().then((reg) => {
    if (reg?.active && !reg.waiting && !reg.installing) store.set({ status: "active" });
  }).catch((err) => console.warn("service worker registration failed", err));
}

/** Activates the waiting worker; the page reloads once it has taken over. */
export function acceptUpdate() {
  if (!wb) return;
  updateAccepted = true;
  store.set({ updateAvailable: false });
  wb.messageSkipWaiting();
}

/** Hides the update card until the next page load. */
export function postponeUpdate() {
  store.set({ updateAvailable: false });
}

/** Drops cached share pages and their reads (on logout), straight through the Cache API. */
export async function clearUserCaches(): Promise<void> {
  if ("caches" in globalThis) await caches.delete(SW_CACHES.shares);
}

/** React hook: the worker's state. */
export function useWorkerState(): WorkerState {
  return useStore(store, INITIAL);
}
