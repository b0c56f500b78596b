/**
 * The Idempotency-Key contract shared by the server middleware and the offline queue: a repeat of
 * a write with the same key returns the first successful result instead of running again.
 */

/** Request header that carries the key. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Response header set on a reply that repeats a kept result. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
/** Longest accepted key, in characters (printable ASCII only). */
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long a successful result is kept: at least 24 h (a little more for clock slack). */
export const IDEMPOTENCY_RESULT_TTL_MS = 25 * 60 * 60_000;
/** How long a key stays reserved for a request in flight before it counts as abandoned. */
export const IDEMPOTENCY_PENDING_TTL_MS = 10 * 60_000;

/** True when `key` is a usable Idempotency-Key: 1-255 printable ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length > 0 && key.length <= IDEMPOTENCY_KEY_MAX && /^[\x21-\x7e]+$/.test(key);
}
