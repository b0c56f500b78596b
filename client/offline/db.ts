/**
 * The offline store (docs/PRODUCT.md §3.12), one IndexedDB database through
 * Dexie, opened by the page and by the service worker alike:
 * - pastes and files: recently opened open shares (no password, no view limit), by slug;
 * - directories: explorer listings, by path (identity-bound: cleared on logout);
 * - settings: small key/value entries (the pending share-target payload, for one);
 * - offlineQueue: writes made offline, replayed when the network returns (queue.ts);
 * - searchHistory: the explorer's recent searches.
 */
import { Dexie, type EntityTable } from "dexie";

/** An open paste kept for offline reading. */
export type OfflinePaste = {
  slug: string;
  data: unknown;
  savedAt: number;
};

/** An open file share's public info kept for offline reading. */
export type OfflineFile = {
  slug: string;
  data: unknown;
  savedAt: number;
};

/** One explorer listing, for the identity that read it. */
export type OfflineDirectory = {
  path: string;
  owner: string;
  data: unknown;
  savedAt: number;
};

export type OfflineSetting = { key: string; value: unknown };

/** Kinds of writes the queue replays (docs/PRODUCT.md §7.9). */
export type QueueItemType =
  | "createPaste"
  | "updatePaste"
  | "updateGroupSettings"
  | "batchDeletePastes"
  | "clearExpiredPastes"
  | "clearCache"
  | "verifyFilePassword";

/** A queued write (docs/PRODUCT.md §3.12) plus its Idempotency-Key. */
export type QueueItem = {
  id?: number;
  endpoint: string;
  method: string;
  data: unknown;
  authToken: string | null;
  authType: "none" | "admin" | "apikey";
  timestamp: number;
  status: "pending" | "failed";
  type: QueueItemType;
  idempotencyKey: string;
  /** The error code of the last failed replay (status "failed"). */
  error?: string;
};

export type SearchHistoryEntry = { id?: number; query: string; timestamp: number };

/** Name of the IndexedDB database. */
export const OFFLINE_DB_NAME = "cubby-offline";

export const db = new Dexie(OFFLINE_DB_NAME) as Dexie & {
  pastes: EntityTable<OfflinePaste, "slug">;
  files: EntityTable<OfflineFile, "slug">;
  directories: EntityTable<OfflineDirectory, "path">;
  settings: EntityTable<OfflineSetting, "key">;
  offlineQueue: EntityTable<QueueItem, "id">;
  searchHistory: EntityTable<SearchHistoryEntry, "id">;
};

db.version(1).stores({
  pastes: "slug",
  files: "slug",
  directories: "path",
  settings: "key",
  offlineQueue: "++id, timestamp, type",
  searchHistory: "++id, query, timestamp",
});

/**
 * Forgets what the signed-in person left on this device (at logout): offline copies of shares,
 * explorer listings and searches, and writes queued with their credentials.
 */
export async function clearIdentityData(): Promise<void> {
  const tables = [db.pastes, db.files, db.directories, db.searchHistory, db.offlineQueue];
  await db.transaction("rw", tables, async () => {
    await Promise.all([
      db.pastes.clear(),
      db.files.clear(),
      db.directories.clear(),
      db.searchHistory.clear(),
    ]);
    await db.offlineQueue.filter((item) => item.authType !== "none").delete();
  });
}
