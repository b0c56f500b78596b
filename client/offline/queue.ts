/**
 * The offline queue's replay, shared by the page (on the `online` event) and the service worker
 * (Background Sync tag `sync-offline-queue`). Items are sent oldest first, each with its
 * Idempotency-Key, so an item whose answer was lost is never applied twice: the server returns
 * the first result. A Web Lock keeps the page and the worker from replaying at the same time.
 * A network failure stops the run and keeps the rest for later; a refusal (4xx) marks the item
 * failed so that it is shown, not retried forever.
 */
import type { QueueItem } from "./db.ts";
import { offlineDb } from "./open_db.ts";

/** The Background Sync tag (docs/PRODUCT.md §4.5). */
export const SYNC_TAG = "sync-offline-queue";
/** BroadcastChannel on which a replay announces its result to every open page. */
export const SYNC_CHANNEL = "cubby-offline-sync";
const LOCK_NAME = "cubby-offline-queue";
/** The "synced" notice clears itself after this long (docs/PRODUCT.md §9.1). */
export const SYNC_NOTICE_MS = 3000;
/** Management pages reload this long after paste operations were synced (docs/PRODUCT.md §4.5). */
export const SYNC_RELOAD_DELAY_MS = 1000;

/** What one replay did. */
export type ReplayResult = {
  synced: number;
  failed: number;
  /** Items left pending because the network failed. */
  remaining: number;
  /** True when a synced item changed pastes (management pages reload). */
  pasteOps: boolean;
  /** The replies to synced createPaste items (the new paste), by item id. */
  created: { id: number; paste: unknown }[];
};

const PASTE_TYPES = new Set([
  "createPaste",
  "updatePaste",
  "batchDeletePastes",
  "clearExpiredPastes",
]);

/** Adds a write to the queue; returns its id. */
export async function enqueue(
  item: Omit<QueueItem, "id" | "status" | "timestamp">,
): Promise<number> {
  const db = await offlineDb();
  const id = await db.offlineQueue.add({ ...item, status: "pending", timestamp: Date.now() });
  return id as number;
}

/** The Authorization header a queued item was made with. */
function authorization(item: QueueItem): string | null {
  if (!item.authToken) return null;
  if (item.authType === "admin") return `Bearer ${item.authToken}`;
  if (item.authType === "apikey") return `ApiKey ${item.authToken}`;
  return null;
}

/** Sends one item; "network" when it never got an answer. */
async function send(
  item: QueueItem,
  origin: string,
): Promise<"network" | "busy" | { error: string; body: unknown }> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Idempotency-Key": item.idempotencyKey,
  };
  const auth = authorization(item);
  if (auth) headers.Authorization = auth;
  let body: string | undefined;
  if (item.data !== undefined && item.data !== null) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(item.data);
  }
  let res: Response;
  try {
    res = await fetch(new URL(item.endpoint, origin), { method: item.method, headers, body });
  } catch {
    return "network";
  }
  const json = await res.json().catch(() => null) as
    | { success?: boolean; error?: string; data?: unknown }
    | null;
  if (res.ok && json?.success !== false) return { error: "", body: json?.data ?? null };
  if (res.status === 409 && json?.error === "idempotency_in_progress") return "busy";
  if (res.status >= 500) return "network";
  return { error: json?.error ?? `http_${res.status}`, body: null };
}

/** Replays every pending item, oldest first. Never throws. */
export async function replayQueue(origin: string): Promise<ReplayResult> {
  const run = () => replayLocked(origin);
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? await locks.request(LOCK_NAME, run) : await run();
}

async function replayLocked(origin: string): Promise<ReplayResult> {
  const result: ReplayResult = { synced: 0, failed: 0, remaining: 0, pasteOps: false, created: [] };
  const db = await offlineDb();
  const items = await db.offlineQueue.orderBy("timestamp").filter((i) => i.status === "pending")
    .toArray();
  for (let n = 0; n < items.length; n++) {
    const item = items[n];
    const outcome = await send(item, origin);
    if (outcome === "network" || outcome === "busy") {
      result.remaining = items.length - n;
      break;
    }
    if (outcome.error === "") {
      await db.offlineQueue.delete(item.id!);
      result.synced++;
      if (PASTE_TYPES.has(item.type)) result.pasteOps = true;
      if (item.type === "createPaste") {
        result.created.push({ id: item.id!, paste: outcome.body });
      }
    } else {
      await db.offlineQueue.update(item.id!, { status: "failed", error: outcome.error });
      result.failed++;
    }
  }
  if (result.synced || result.failed) announce(result);
  return result;
}

/** Tells every open page what a replay did. */
function announce(result: ReplayResult) {
  try {
    const channel = new BroadcastChannel(SYNC_CHANNEL);
    channel.postMessage(result);
    channel.close();
  } catch { /* no BroadcastChannel: pages see the queue change through Dexie */ }
}
