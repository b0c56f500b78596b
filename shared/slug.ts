/**
 * Link suffix (slug) rules of docs/PRODUCT.md §5.2 and the UTF-8 size of a text, with no
 * dependencies, so the browser can check a form without loading zod, and the server applies the
 * very same rules.
 */
import { MAX_SLUG_LENGTH, RESERVED_SLUGS } from "./constants.ts";

/** Letters, digits, `_` and `-`, 1 to 50 characters. */
export const SLUG_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_SLUG_LENGTH}}$`);

const RESERVED = new Set<string>(RESERVED_SLUGS.map((s) => s.toLowerCase()));

/** True when a route of the app itself uses `slug` (compared without case). */
export function isReservedSlug(slug: string): boolean {
  return RESERVED.has(slug.toLowerCase());
}

/** True when `slug` is a well-formed custom slug that no route of the app uses. */
export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug) && !isReservedSlug(slug);
}

/** The error code of an invalid custom slug (`slug_invalid`, `slug_reserved`); "" is valid. */
export function checkSlug(slug: string): "slug_invalid" | "slug_reserved" | null {
  if (slug === "") return null;
  if (!SLUG_PATTERN.test(slug)) return "slug_invalid";
  if (isReservedSlug(slug)) return "slug_reserved";
  return null;
}

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
