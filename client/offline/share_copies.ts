/**
 * Offline copies of open shares in the offline store: a paste or file share opened online is
 * kept (by slug) only when it is open, with no password and no view limit, so a copy can never
 * stand in for a password or a counted view. A share that turns out protected, gone or expired
 * is dropped. Reads fall back to the copy only when the network failed.
 */
import { ApiError } from "../api/client.ts";
import { offlineDb } from "./open_db.ts";

/** The parts of a share view that decide whether it may be kept. */
type ShareFlags = { slug: string; has_password?: boolean; max_views?: number | null };

/** True for a share known to have no password and no view limit (missing flags: false). */
export function isOpenShare(share: ShareFlags): boolean {
  return share.has_password === false && share.max_views === 0;
}

/** True when an error means the network, not the server, failed. */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof ApiError &&
    (err.code === "network_error" || err.code === "request_timeout");
}

/** Keeps an open share (a protected or view-limited one is dropped instead). Never throws. */
export async function keepShareCopy(kind: "pastes" | "files", share: ShareFlags) {
  try {
    const db = await offlineDb();
    if (isOpenShare(share)) {
      // A copy is what any visitor may read: nothing that only its owner was shown.
      const data = { ...share, can_manage: false, own_view: false };
      await db[kind].put({ slug: share.slug, data, savedAt: Date.now() });
    } else await db[kind].delete(share.slug);
  } catch { /* no IndexedDB (private mode): offline copies are a convenience */ }
}

/** Drops the copy of a share the server refused (protected, gone, expired). Never throws. */
export async function dropShareCopy(kind: "pastes" | "files", slug: string) {
  try {
    await (await offlineDb())[kind].delete(slug);
  } catch { /* nothing kept */ }
}

/** The kept copy of a share, or null. */
export async function readShareCopy<T>(
  kind: "pastes" | "files",
  slug: string,
): Promise<{ data: T; savedAt: number } | null> {
  try {
    const copy = await (await offlineDb())[kind].get(slug);
    if (!copy || !isOpenShare(copy.data as ShareFlags)) return null;
    return { data: copy.data as T, savedAt: copy.savedAt };
  } catch {
    return null;
  }
}

/**
 * When the service worker answered this document from its cache because the network failed
 * (`<html data-offline-copy>`, client/sw/offline_copy.ts): the time the copy was saved; else
 * null. Only the document's first screen was answered so: see forgetDocumentCopy.
 */
export function documentCopySavedAt(): number | null {
  const saved = Number(globalThis.document?.documentElement.dataset.offlineCopy);
  return saved > 0 ? saved : null;
}

/** Drops the document's offline-copy mark once its first screen has read it. */
export function forgetDocumentCopy(): void {
  delete globalThis.document?.documentElement.dataset.offlineCopy;
}
