/**
 * Keys of an end-to-end encrypted share (format version 1, docs/E2E.md). The browser draws a
 * random 256-bit link key, which only the link's fragment carries. An optional password is
 * stretched with PBKDF2-SHA256 (600 000 iterations) and appended, so a leaked link alone opens
 * nothing. Every other key comes from that input by HKDF-SHA256 with its own label:
 *
 * - the access token, which the server stores hashed as the share's password: it lets the
 *   holder fetch the ciphertext (and count a view) but reveals nothing of the keys;
 * - the metadata key (a file's encrypted name and type);
 * - the content key and nonce prefix of each stream (stream.ts), salted by the stream header.
 *
 * WebCrypto only, so the same module runs in the browser, the service worker, Deno and Node.
 */
import { fromBase64Url, toBase64Url } from "./bytes.ts";

/** The format version this module reads and writes. */
export const E2E_VERSION = 1;
/** Bytes of the link key. */
export const LINK_KEY_BYTES = 32;
/** PBKDF2-SHA256 iterations of a share password (fixed by format version 1). */
export const PASSWORD_ITERATIONS = 600_000;
/** The access token as the server takes it: 43 base64url characters (256 bits). */
export const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const encoder = new TextEncoder();

/** HKDF and PBKDF2 labels of format version 1. */
export const LABELS = {
  password: "cubby-e2e/v1/password",
  access: "cubby-e2e/v1/access",
  meta: "cubby-e2e/v1/meta",
  contentKey: "cubby-e2e/v1/content-key",
  contentNonce: "cubby-e2e/v1/content-nonce",
} as const;

/**
 * The secret a share is opened with: the input keying material (the link key, then the
 * stretched password if there is one). Everything else is derived from it.
 */
export type ShareSecret = { ikm: Uint8Array<ArrayBuffer> };

/** A fresh random link key. */
export function newLinkKey(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(LINK_KEY_BYTES));
}

/** The link key as the fragment carries it (43 base64url characters, no `#`). */
export function encodeLinkKey(key: Uint8Array): string {
  return toBase64Url(key);
}

/** The link key of a fragment (`#…` or bare); null when missing or malformed. */
export function parseLinkKey(fragment: string): Uint8Array<ArrayBuffer> | null {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const key = fromBase64Url(text);
  return key && key.length === LINK_KEY_BYTES ? key : null;
}

/** PBKDF2-SHA256 of the password (NFC, UTF-8) salted with the label and the link key. */
export async function stretchPassword(
  linkKey: Uint8Array,
  password: string,
  iterations = PASSWORD_ITERATIONS,
): Promise<Uint8Array<ArrayBuffer>> {
  const base = await crypto.subtle.importKey(
    "raw",
    encoder.encode(password.normalize("NFC")),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const salt = new Uint8Array([...encoder.encode(LABELS.password), ...linkKey]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    base,
    256,
  );
  return new Uint8Array(bits);
}

/** The share secret of a link key and an optional password ("" or null: none). */
export async function shareSecret(
  linkKey: Uint8Array,
  password?: string | null,
): Promise<ShareSecret> {
  if (linkKey.length !== LINK_KEY_BYTES) throw new RangeError("the link key must be 32 bytes");
  if (!password) return { ikm: new Uint8Array(linkKey) };
  const stretched = await stretchPassword(linkKey, password);
  return { ikm: new Uint8Array([...linkKey, ...stretched]) };
}

/** The link key inside a share secret (its first 32 bytes). */
export function linkKeyOf(secret: ShareSecret): Uint8Array<ArrayBuffer> {
  return secret.ikm.slice(0, LINK_KEY_BYTES);
}

/** HKDF-SHA256 of the share secret: `length` bytes for `label`, with an optional salt. */
export async function hkdf(
  secret: ShareSecret,
  label: string,
  length: number,
  salt: Uint8Array<ArrayBuffer> = new Uint8Array(0),
): Promise<Uint8Array<ArrayBuffer>> {
  const base = await crypto.subtle.importKey("raw", secret.ikm, "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt, info: encoder.encode(label) },
    base,
    length * 8,
  );
  return new Uint8Array(bits);
}

/** The access token the server checks (as the share's password) before it sends ciphertext. */
export async function accessToken(secret: ShareSecret): Promise<string> {
  return toBase64Url(await hkdf(secret, LABELS.access, 32));
}

/** An AES-256-GCM key from raw bytes. */
export function aesKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}
