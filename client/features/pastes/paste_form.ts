/**
 * Client-side checks of the share form (docs/PRODUCT.md §5.2), the same rules the server applies.
 */
import { MAX_PASTE_BYTES, SHARE_EXPIRY_PRESETS } from "../../../shared/constants.ts";
import { utf8ByteLength } from "../../../shared/slug.ts";

export { checkSlug, utf8ByteLength } from "../../../shared/slug.ts";

export type ExpiryPresetId = typeof SHARE_EXPIRY_PRESETS[number]["id"];

/** The error code of a content that cannot be sent, or null when it can. */
export function checkContent(content: string, bytes = utf8ByteLength(content)): string | null {
  if (content.trim() === "") return "content_empty";
  if (bytes > MAX_PASTE_BYTES) return "content_too_large";
  return null;
}

/**
 * Parses the max-views field: a whole number from 0 (unlimited) to `max`, or null when
 * invalid.
 */
export function parseMaxViews(value: string, max = Number.MAX_SAFE_INTEGER): number | null {
  const v = value.trim();
  if (v === "") return 0;
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n <= max ? n : null;
}

/** The ISO expiry time of a preset counted from `now`, or null for "never". */
export function expiresAtFor(preset: ExpiryPresetId, now = Date.now()): string | null {
  const p = SHARE_EXPIRY_PRESETS.find((x) => x.id === preset);
  return p?.ms ? new Date(now + p.ms).toISOString() : null;
}

/** A byte count for people: "1.5 MB", "320 B". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${Number((bytes / 1024 / 1024).toFixed(2))} MB`;
}
