/**
 * Marks replies the service worker may keep for offline reading (shared/pwa.ts
 * CACHEABLE_HEADER). Only an open share qualifies: no password, no view limit, read without
 * credentials, so a cached copy can never replace a password or a counted view, and never
 * holds what one identity may see and another may not. An expiring share also carries its
 * expiry, after which the worker stops answering from its copy.
 */
import type { Context } from "hono";
import type { AppEnv } from "./types.ts";
import { CACHE_EXPIRES_HEADER, CACHEABLE_HEADER } from "../../shared/pwa.ts";

/** The share fields that decide whether a reply may be cached. */
export type ShareAccess = { has_password: boolean; max_views: number; expires_at: string | null };

/** True for a share anyone may read any number of times without a password. */
export function isOpenShare(share: ShareAccess): boolean {
  return !share.has_password && share.max_views === 0;
}

/** Sets the cacheable headers on the reply when the share is open and the caller anonymous. */
export function markCacheableShare(c: Context<AppEnv>, share: ShareAccess) {
  // Page requests carry no credentials and have no auth context: they count as anonymous.
  const auth = c.get("auth");
  if ((auth && auth.type !== "none") || !isOpenShare(share)) return;
  c.header(CACHEABLE_HEADER, "1");
  if (share.expires_at) c.header(CACHE_EXPIRES_HEADER, share.expires_at);
}
