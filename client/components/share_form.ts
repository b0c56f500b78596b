/**
 * Client-side checks of the share form (docs/PRODUCT.md §5.2), the same rules the server applies:
 * the link suffix, max views and the expiry presets.
 */
import { SHARE_EXPIRY_PRESETS } from "../../shared/constants.ts";

export { checkSlug } from "../../shared/slug.ts";

export type ExpiryPresetId = typeof SHARE_EXPIRY_PRESETS[number]["id"];

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
