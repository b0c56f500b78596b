/** Password hashing (PBKDF2-SHA256 via WebCrypto), tokens and constant-time comparison. */
import { createHash, timingSafeEqual } from "node:crypto";

const encoder = new TextEncoder();
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Standard base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** The bytes of standard base64; throws on malformed input. */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}

/**
 * Hex SHA-256 of a string (UTF-8) or bytes. Synchronous through node:crypto: it runs on every
 * API-key and session request, where the async WebCrypto digest costs several times more.
 */
export function sha256Hex(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A random base64url token of `bytes` bytes (default 32, i.e. 256 bits). */
export function randomToken(bytes = 32): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return toBase64(buf).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
/** Random bytes drawn ahead, so that a per-request value costs no call into the RNG. */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** `n` (at most 4096) fresh bytes of the crypto RNG, from a pool refilled when used up. */
export function pooledBytes(n: number): Uint8Array {
  if (poolAt + n > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const out = pool.subarray(poolAt, poolAt + n);
  poolAt += n;
  return out;
}

/**
 * A 128-bit random value as 32 lowercase hex characters, for a response's CSP nonce: one per
 * page request, so it is drawn from a pool (each byte is used once) and hex-encoded by table.
 */
export function randomNonce(): string {
  const b = pooledBytes(16);
  let s = "";
  for (let i = 0; i < 16; i++) s += HEX[b[i]];
  return s;
}

/** An unbiased random base62 string from the crypto RNG (rejection sampling). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248) out += BASE62[b % 62]; // 248 = 62 * 4: no modulo bias
      if (out.length === length) break;
    }
  }
  return out;
}

/** Constant-time equality of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = encoder.encode(a);
  const bb = encoder.encode(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab); // keep timing similar
    return false;
  }
  return timingSafeEqual(ab, bb);
}

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/** Hashes a password as `pbkdf2-sha256$iterations$salt$hash`. */
export async function hashPassword(password: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/**
 * Hashes an end-to-end encrypted share's access token as `sha256$hash`. The token carries 256
 * bits from HKDF, so a slow KDF would add cost and no safety (as for API keys); the caller has
 * checked its form (shared/schemas/e2e.ts).
 */
export function hashAccessToken(token: string): string {
  return `sha256$${createHash("sha256").update(token).digest("base64")}`;
}

/** Checks a password against a stored hash in constant time; false for malformed hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith("sha256$")) {
    let expected: Uint8Array;
    try {
      expected = fromBase64(stored.slice(7));
    } catch {
      return false;
    }
    const actual = createHash("sha256").update(password).digest();
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
  const [scheme, iter, salt, hash] = stored.split("$");
  const iterations = Number(iter);
  if (scheme !== "pbkdf2-sha256" || !Number.isInteger(iterations) || !salt || !hash) return false;
  const actual = await pbkdf2(password, fromBase64(salt), iterations);
  const expected = fromBase64(hash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
