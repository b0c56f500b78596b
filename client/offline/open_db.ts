/**
 * The offline store, loaded on first use: Dexie is about a third of a share page's scripts, so
 * the page modules reach the store through this dynamic import and Dexie stays out of the
 * scripts a page needs before it hydrates.
 */
import type { db as OfflineDb } from "./db.ts";

/** The offline store (client/offline/db.ts), imported on the first call. */
export function offlineDb(): Promise<typeof OfflineDb> {
  return import("./db.ts").then((m) => m.db);
}
