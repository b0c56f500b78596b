/** Client-side checks of the share form (spec §5), the same rules the server applies. */
import {
  MAX_PASTE_BYTES,
  MAX_SLUG_LENGTH,
  RESERVED_SLUGS,
  SHARE_EXPIRY_PRESETS,
} from "../../../shared/constants.ts";

export type ExpiryPresetId = typeof SHARE_EXPIRY_PRESETS[number]["id"];

const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
const RESERVED = new Set<string>(RESERVED_SLUGS.map((s) => s.toLowerCase()));

/** The number of bytes `text` takes in UTF-8, without allocating an encoded copy. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The error code of a content that cannot be sent, or null when it can. */
export function checkContent(content: string, bytes = utf8ByteLength(content)): string | null {
  if (content.trim() === "") return "content_empty";
  if (bytes > MAX_PASTE_BYTES) return "content_too_large";
  return null;
}

/** The error code of an invalid custom link suffix; an empty suffix is valid (random slug). */
export function checkSlug(slug: string): string | null {
  if (slug === "") return null;
  if (slug.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(slug)) return "slug_invalid";
  if (RESERVED.has(slug.toLowerCase())) return "slug_reserved";
  return null;
}

/** Parses the max-views field: a whole number ≥ 0 (0 = unlimited), or null when invalid. */
export function parseMaxViews(value: string): number | null {
  const v = value.trim();
  if (v === "") return 0;
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : null;
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
