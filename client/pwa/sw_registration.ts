/**
 * Registers the service worker through workbox-window (browser only; imported by main.tsx)
 * and feeds worker_state.ts. A waiting worker raises the update card; accepting activates it
 * (SKIP_WAITING) and reloads once it controls the page, after UPDATE_RELOAD_DELAY_MS. When the
 * first worker takes control, it is asked to cache what the page already loaded, so a first
 * visit is readable offline too.
 */
import { Workbox } from "workbox-window";
import { onUpdateAccepted, workerStore } from "./worker_state.ts";
import { UPDATE_RELOAD_DELAY_MS } from "../../shared/pwa.ts";

let wb: Workbox | null = null;
let updateAccepted = false;

/**
 * Same-origin URLs the page has loaded (document and resources), outside the API. Without the
 * fragment: an end-to-end encrypted share's link carries its key there, and the worker must
 * never see, let alone store, it.
 */
function loadedUrls(): string[] {
  const page = location.href.split("#")[0];
  const urls = [page, ...performance.getEntriesByType("resource").map((e) => e.name)];
  return urls.filter((u) => {
    const url = new URL(u);
    return url.origin === location.origin && !url.pathname.startsWith("/api/");
  });
}

/** Starts the service worker where the browser supports it (secure contexts only). */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext || wb) return;
  const box = new Workbox("/sw.js", { scope: "/" });
  wb = box;
  box.addEventListener("installing", () => workerStore.set({ status: "installing" }));
  box.addEventListener(
    "waiting",
    () => workerStore.set({ status: "waiting", updateAvailable: true }),
  );
  box.addEventListener("activated", () => workerStore.set({ status: "active" }));
  box.addEventListener("redundant", () => workerStore.set({ status: "redundant" }));
  box.addEventListener("controlling", (event) => {
    workerStore.set({ status: "active" });
    if (updateAccepted) {
      setTimeout(() => location.reload(), UPDATE_RELOAD_DELAY_MS);
    } else if (!event.isUpdate) {
      box.messageSW({ type: "CACHE_URLS", payload: { urlsToCache: loadedUrls() } });
    }
  });
  onUpdateAccepted(() => {
    updateAccepted = true;
    box.messageSkipWaiting();
  });
  box.register().then((reg) => {
    if (reg?.active && !reg.waiting && !reg.installing) workerStore.set({ status: "active" });
  }).catch((err) => console.warn("service worker registration failed", err));
}
