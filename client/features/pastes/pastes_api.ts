/** Calls of the paste screens (docs/PRODUCT.md §7.2); every function throws ApiError. */
import { api } from "../../api/client.ts";
import { sendOrQueue } from "../../offline/queued_api.ts";
import type {
  PasteBatchDeleteResult,
  PasteList,
  PasteListItem,
  PasteLocked,
  PasteView,
} from "../../../shared/schemas/pastes.ts";

export type { PasteList, PasteListItem, PasteLocked, PasteView };

export type CreatePasteInput = {
  content: string;
  slug?: string;
  remark?: string;
  password?: string;
  expires_at?: string | null;
  max_views?: number;
};

/** Fields of PUT /api/pastes/:id; an absent field keeps its value, password null/"" clears. */
export type UpdatePasteInput = {
  content?: string;
  remark?: string;
  slug?: string;
  password?: string | null;
  expires_at?: string | null;
  max_views?: number;
};

const enc = encodeURIComponent;

/** Creates a paste (needs admin or a key with TEXT); offline, queues it (QueuedOfflineError). */
export function createPaste(input: CreatePasteInput): Promise<PasteView> {
  return sendOrQueue<PasteView>("/paste", { type: "createPaste", method: "POST", body: input });
}

/*
 * Opening a share sends the user's credentials when logged in: the share's owner (the admin, or
 * the key that created it) is recognised, and the owner's views are not counted. A 403
 * password_required or 401 wrong_password never ends the session (client.ts logs out only on
 * expired credentials), and the server never lets an authenticated reply into the offline
 * cache. Manage rights still come from getPaste().
 */

/** Opens a paste; counts a view. Throws password_required, paste_not_found, paste_expired. */
export function fetchPaste(slug: string): Promise<PasteView> {
  return api<PasteView>(`/paste/${enc(slug)}`);
}

/** Opens a password-protected paste; throws wrong_password or too_many_requests. */
export function unlockPaste(slug: string, password: string): Promise<PasteView> {
  return api<PasteView>(`/paste/${enc(slug)}`, { method: "POST", body: { password } });
}

/** Lists pastes the caller may manage (key users see their own). */
export function listPastes(
  q: { page: number; limit: number; search?: string },
): Promise<PasteList> {
  return api<PasteList>("/pastes", {
    query: {
      page: q.page,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
      search: q.search || undefined,
    },
  });
}

/** Reads one paste with its content as its manager; does not count a view. */
export function getPaste(id: string): Promise<PasteView> {
  return api<PasteView>(`/pastes/${enc(id)}`);
}

/** Updates a paste as its manager; offline, queues it. */
export function updatePaste(id: string, input: UpdatePasteInput): Promise<PasteView> {
  return sendOrQueue<PasteView>(`/pastes/${enc(id)}`, {
    type: "updatePaste",
    method: "PUT",
    body: input,
  });
}

/** Deletes pastes by id (the server skips those the caller may not manage); offline, queues. */
export function deletePastes(ids: string[]): Promise<PasteBatchDeleteResult> {
  return sendOrQueue("/pastes/batch-delete", {
    type: "batchDeletePastes",
    method: "DELETE",
    replayMethod: "POST",
    body: { ids },
  });
}

/** Deletes every expired paste the caller may manage; offline, queues it. */
export function clearExpiredPastes(): Promise<{ deleted: number }> {
  return sendOrQueue("/pastes/clear-expired", {
    type: "clearExpiredPastes",
    method: "POST",
    body: { clearExpired: true },
  });
}
