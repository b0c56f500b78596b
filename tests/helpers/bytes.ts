/** Test payloads: sizes and random bytes. */

/** One mebibyte. */
export const MiB = 1024 * 1024;

/** `n` random bytes (filled 64 KiB at a time, the most getRandomValues takes at once). */
export function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) {
    crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  }
  return out;
}
