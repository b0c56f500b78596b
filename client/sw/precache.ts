/**
 * The precache: the entry script and every chunk it imports statically, its stylesheet, the
 * icons, the document shell (APP_SHELL_PATH) and the offline page. Lazy route chunks are not
 * precached; they are cached the first time they load (runtime_cache.ts), which keeps the
 * install small. The list is written by scripts/build.ts.
 */
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import type { PrecacheEntry } from "workbox-precaching";

declare const __CUBBY_PRECACHE__: PrecacheEntry[];

/** Registers the precache: fetched on install, outdated entries dropped on activate. */
export function installPrecache() {
  cleanupOutdatedCaches();
  precacheAndRoute(__CUBBY_PRECACHE__);
}
