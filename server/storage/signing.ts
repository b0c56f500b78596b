/**
 * HMAC-signed, short-lived URLs for the local driver. S3 presigns its own URLs; the local
 * driver's "presigned" GET, PUT and part URLs point back at Cubby, and the route that serves
 * them checks the signature here before touching the driver.
 *
 * The signature is HMAC-SHA256 over a canonical string of: a version tag, the scope (the
 * storage config id: every local config shares one secret, so a URL must not work on another
 * config's route), the operation, the key, the expiry (unix seconds) and every other query
 * parameter sorted by name (filename, content type, download flag, size, upload id, part
 * number), each part percent-encoded so that no value can forge a separator. Verification
 * rebuilds the string from the request, so changing, adding or dropping any part fails. It is
 * compared in constant time.
 */
import { createHmac } from "node:crypto";
import { safeEqual } from "../lib/crypto.ts";

export type SignedOp = "get" | "put" | "part";

export type SignInput = {
  /** The storage config the URL belongs to; a URL only verifies for the same scope. */
  scope: string;
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

const VERSION = "cubby-storage-v2";
const RESERVED = new Set(["op", "exp", "sig"]);

function canonical(
  scope: string,
  op: string,
  key: string,
  exp: string,
  params: Record<string, string>,
): string {
  const rest = Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k])}`)
    .join("&");
  return [VERSION, encodeURIComponent(scope), op, encodeURIComponent(key), exp, rest].join("\n");
}

function hmac(secret: string, text: string): string {
  return createHmac("sha256", secret).update(text).digest("base64url");
}

/** Signs an operation on a key in a scope; returns the query string (without `?`). Throws on bad input. */
export function signStorageQuery(secret: string, input: SignInput): string {
  if (!secret) throw new Error("signing secret is empty");
  if (!input.scope) throw new Error("signing scope is empty");
  if (!Number.isFinite(input.expiresIn) || input.expiresIn <= 0) {
    throw new Error(`expiresIn must be positive, got ${input.expiresIn}`);
  }
  const params = input.params ?? {};
  for (const name of Object.keys(params)) {
    if (RESERVED.has(name)) throw new Error(`"${name}" is a reserved parameter`);
  }
  const exp = String(Math.floor((input.now ?? Date.now()) / 1000) + Math.ceil(input.expiresIn));
  const sig = hmac(secret, canonical(input.scope, input.op, input.key, exp, params));
  const query = new URLSearchParams({ op: input.op, exp, ...params, sig });
  return query.toString();
}

/**
 * Checks a signed query for an operation on a key. Returns the bound parameters when the
 * signature matches and has not expired; never throws.
 */
export function verifyStorageQuery(
  secret: string,
  input: { scope: string; op: SignedOp; key: string; query: URLSearchParams; now?: number },
): VerifyResult {
  const { query } = input;
  const sig = query.get("sig");
  const exp = query.get("exp");
  if (
    !secret || !input.scope || !sig || !exp || !/^\d{1,12}$/.test(exp) ||
    query.get("op") !== input.op
  ) {
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
  const expected = hmac(secret, canonical(input.scope, input.op, input.key, exp, params));
  if (!safeEqual(sig, expected)) return { ok: false, reason: "invalid" };
  const expiresAt = Number(exp);
  if ((input.now ?? Date.now()) / 1000 > expiresAt) return { ok: false, reason: "expired" };
  return { ok: true, params, expiresAt };
}
