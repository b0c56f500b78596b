/** How a paste record is shown: its view, its list row, its preview, and who may manage it. */
import type { PasteRecord } from "./paste_repo.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import { hasPermission, Permission } from "../../shared/permissions.ts";
import type { PasteListItem, PasteView } from "../../shared/schemas/pastes.ts";
import { shareFacts } from "./share_facts.ts";

const PREVIEW_CHARS = 200;

/** The first characters of a text, cut at a code point boundary. */
export function previewOf(content: string): string {
  return Array.from(content.slice(0, PREVIEW_CHARS * 2)).slice(0, PREVIEW_CHARS).join("");
}

/** True when the paste's expiry is at or before `now`. */
export const isPastExpiry = (rec: PasteRecord, now: number) =>
  rec.expires_at !== null && Date.parse(rec.expires_at) <= now;

/** True when a view-limited paste has had all its views. */
export const isUsedUp = (rec: PasteRecord, views: number) =>
  rec.max_views > 0 && views >= rec.max_views;

/** True when the caller is the admin or the key (with TEXT) that created the paste. */
export function canManage(auth: Auth, rec: PasteRecord): boolean {
  if (auth.type === "admin") return true;
  return auth.type === "apikey" && hasPermission(auth.permissions, Permission.TEXT) &&
    rec.created_by === creatorOf(auth);
}

/** The view of a paste; `content` is null in lists and locked shares. */
export function toView(
  rec: PasteRecord,
  views: number,
  content: string | null,
  auth: Auth,
): PasteView {
  return {
    id: rec.id,
    slug: rec.slug,
    content,
    ...shareFacts(rec, views),
    updated_at: rec.updated_at,
    created_by: rec.created_by,
    url: `/paste/${encodeURIComponent(rec.slug)}`,
    raw_url: `/api/raw/${encodeURIComponent(rec.slug)}`,
    can_manage: canManage(auth, rec),
    content_size: rec.content_size,
    ...(rec.e2e ? { e2e: rec.e2e } : {}),
  };
}

/** One row of the paste list: the view without content, with preview and expired flag. */
export function toListItem(
  rec: PasteRecord,
  views: number,
  auth: Auth,
  now: number,
): PasteListItem {
  const { content: _content, raw_url: _raw, ...meta } = toView(rec, views, null, auth);
  return {
    ...meta,
    preview: rec.preview,
    is_expired: isPastExpiry(rec, now) || isUsedUp(rec, views),
  };
}
