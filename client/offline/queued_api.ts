/**
 * Writes that survive being offline (docs/PRODUCT.md §4.5, §7.9). Each call carries
 * a fresh Idempotency-Key. When the browser is offline, the write is stored in the offline queue
 * with that key, Background Sync is asked to replay it, and the call throws QueuedOfflineError:
 * the caller shows the "queued" state. A replay can never apply the write twice. While the
 * browser is online, a failed request is an error (the server is not responding), not a queued
 * write: nothing would tell the user when, or whether, it will be sent.
 */
import { api, apiBase, ApiError } from "../api/client.ts";
import { getAuth } from "../auth/auth_store.ts";
import type { QueueItemType } from "./db.ts";
import { enqueue, SYNC_TAG } from "./queue.ts";

/** Fired on window with the queue item id when a write was queued. */
export const QUEUED_EVENT = "cubby:offline-queued";

/** Thrown when a write was stored for later instead of sent; `errors.offline_queued`. */
export class QueuedOfflineError extends ApiError {
  constructor(readonly itemId: number) {
    super("offline_queued", 0, null);
    this.name = "QueuedOfflineError";
  }
}

type QueuedCall = {
  type: QueueItemType;
  method: string;
  body?: unknown;
  anonymous?: boolean;
  /**
   * The method of the replay when it differs (batch delete replays as POST, docs/PRODUCT.md §7.9).
   */
  replayMethod?: string;
};

/** Asks the service worker for a Background Sync of the queue, where the browser has it. */
export async function requestBackgroundSync(): Promise<boolean> {
  try {
    if (!("serviceWorker" in navigator)) return false;
    const reg = await navigator.serviceWorker.getRegistration();
    const sync = (reg as
      | ServiceWorkerRegistration & {
        sync?: { register(tag: string): Promise<void> };
      }
      | undefined)?.sync;
    if (!sync) return false;
    await sync.register(SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}

/** Sends a write, or queues it when offline; throws ApiError or QueuedOfflineError. */
export async function sendOrQueue<T>(path: string, call: QueuedCall): Promise<T> {
  const idempotencyKey = crypto.randomUUID();
  if (navigator.onLine !== false) {
    return await api<T>(path, {
      method: call.method,
      body: call.body,
      anonymous: call.anonymous,
      headers: { "Idempotency-Key": idempotencyKey },
    });
  }
  const auth = getAuth();
  const token = call.anonymous
    ? null
    : auth.authType === "admin"
    ? auth.adminToken
    : auth.authType === "apikey"
    ? auth.apiKey
    : null;
  const id = await enqueue({
    endpoint: `${apiBase()}/api${path}`,
    method: call.replayMethod ?? call.method,
    data: call.body ?? null,
    authToken: token,
    authType: token ? auth.authType : "none",
    type: call.type,
    idempotencyKey,
  });
  globalThis.dispatchEvent(new CustomEvent(QUEUED_EVENT, { detail: id }));
  await requestBackgroundSync();
  throw new QueuedOfflineError(id);
}
