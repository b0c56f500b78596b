/**
 * HMAC-signed, short-lived URLs for the local driver. S3 presigns its own URLs; the local
 * driver's "presigned" GET, PUT and part URLs point back at Cubby, and the route that serves
 * them checks the signature here before touching the driver.
 *
 * The signature is HMAC-SHA256 over a canonical string of: a version tag, the operation, the
 * key, the expiry (unix seconds) and every other query parameter sorted by name, each part
 * percent-encoded so that no value can forge a separator. It is compared in constant time.
 */
import { createHmac } from "node:crypto";
import { safeEqual } from "../services/crypto.ts";

export type SignedOp = "get" | "put" | "part";

export type SignInput = {
  op: SignedOp;
  key: string;
  /** Seconds from `now` until the URL stops working. */
  expiresIn: number;
  /** Extra parameters bound into the signature (uploadId, partNumber, filename...). */
  params?: Record<string, string>;
  /** Milliseconds since the epoch; defaults to Date.now(). */
  now?: number;
};

export type VerifyResult =
  | { ok: true; params: Record<string, string>; expiresAt: number }
  | { ok: false; reason: "invalid" | "expired" };

const VERSION = "cubby-storage-v1";
const RESERVED = new Set(["op", "exp", "sig"]);

function canonical(op: string, key: string, exp: string, params: Record<string, string>): string {
  const rest = Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k])}`)
    .join("&");
  return [VERSION, op, encodeURIComponent(key), exp, rest].join("\n");
}

function hmac(secret: string, text: string): string {
  return createHmac("sha256", secret).update(text).digest("base64url");
}

/** Signs an operation on a key; returns the query string (without `?`). Throws on bad input. */
export function signStorageQuery(secret: string, input: SignInput): string {
  if (!secret) throw new Error("signing secret is empty");
  if (!Number.isFinite(input.expiresIn) || input.expiresIn <= 0) {
    throw new Error(`expiresIn must be positive, got ${input.expiresIn}`);
  }
  const params = input.params ?? {};
  for (const name of Object.keys(params)) {
    if (RESERVED.has(name)) throw new Error(`"${name}" is a reserved parameter`);
  }
  const exp = String(Math.floor((input.now ?? Date.now()) / 1000) + Math.ceil(input.expiresIn));
  const sig = hmac(secret, canonical(input.op, input.key, exp, params));
  const query = new URLSearchParams({ op: input.op, exp, ...params, sig });
  return query.toString();
}

/**
 * Checks a signed query for an operation on a key. Returns the bound parameters when the
 * signature matches and has not expired; never throws.
 */
export function verifyStorageQuery(
  secret: string,
  input: { op: SignedOp; key: string; query: URLSearchParams; now?: number },
): VerifyResult {
  const { query } = input;
  const sig = query.get("sig");
  const exp = query.get("exp");
  if (!secret || !sig || !exp || !/^\d{1,12}$/.test(exp) || query.get("op") !== input.op) {
    return { ok: false, reason: "invalid" };
  }
  for (const name of RESERVED) {
    if (query.getAll(name).length !== 1) return { ok: false, reason: "invalid" };
  }
  const params: Record<string, string> = {};
  for (const [name, value] of query) {
    if (RESERVED.has(name)) continue;
    if (name in params) return { ok: false, reason: "invalid" }; // duplicated parameter
    params[name] = value;
  }
  const expected = hmac(secret, canonical(input.op, input.key, exp, params));
  if (!safeEqual(sig, expected)) return { ok: false, reason: "invalid" };
  const expiresAt = Number(exp);
  if ((input.now ?? Date.now()) / 1000 > expiresAt) return { ok: false, reason: "expired" };
  return { ok: true, params, expiresAt };
}
