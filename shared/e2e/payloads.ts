/**
 * What an end-to-end encrypted share stores besides a file's stream: a text share's content
 * (the stream of its UTF-8 text, as base64url) and a file's metadata (name and type, sealed
 * with the metadata key under a random nonce). Both open only with the share secret.
 */
import { fromBase64Url, toBase64Url } from "./bytes.ts";
import { aesKey, hkdf, LABELS, type ShareSecret } from "./keys.ts";
import {
  ciphertextSize,
  decryptBytes,
  DEFAULT_RECORD_SIZE,
  E2EError,
  encryptBytes,
  makeHeader,
  type StreamHeader,
} from "./stream.ts";

const encoder = new TextEncoder();
const META_AAD = encoder.encode(LABELS.meta);

/** A file's name and media type, as the uploader knew them. */
export type FileMeta = { name: string; type: string };

/** The longest stored metadata (base64url characters): a 255-byte name and type fit easily. */
export const MAX_META_CHARS = 2048;

/** The longest text-share ciphertext for a plaintext of `maxBytes` (base64url characters). */
export function maxTextCiphertextChars(maxBytes: number): number {
  return Math.ceil((ciphertextSize(maxBytes, DEFAULT_RECORD_SIZE) * 4) / 3);
}

/** Encrypts a text share's content; the result is what the server stores as the content. */
export async function encryptText(
  secret: ShareSecret,
  text: string,
  header?: StreamHeader,
): Promise<string> {
  return toBase64Url(await encryptBytes(secret, encoder.encode(text), header ?? makeHeader()));
}

/** Decrypts a text share's content; throws E2EError. */
export async function decryptText(secret: ShareSecret, content: string): Promise<string> {
  const sealed = fromBase64Url(content);
  if (!sealed) throw new E2EError("format", "the content is not base64url");
  const plain = await decryptBytes(secret, sealed);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    throw new E2EError("format", "the text is not UTF-8");
  }
}

/** Seals a file's metadata: base64url of nonce (12 bytes) | AES-256-GCM(JSON). */
export async function encryptMeta(
  secret: ShareSecret,
  meta: FileMeta,
  nonce: Uint8Array<ArrayBuffer> = crypto.getRandomValues(new Uint8Array(12)),
): Promise<string> {
  const key = await aesKey(await hkdf(secret, LABELS.meta, 32));
  const json = encoder.encode(JSON.stringify({ name: meta.name, type: meta.type }));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: nonce, additionalData: META_AAD },
    key,
    json,
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(nonce, 0);
  out.set(new Uint8Array(sealed), 12);
  return toBase64Url(out);
}

/** Opens a file's metadata; throws E2EError. */
export async function decryptMeta(secret: ShareSecret, text: string): Promise<FileMeta> {
  const bytes = fromBase64Url(text);
  if (!bytes || bytes.length < 12 + 16) throw new E2EError("format", "malformed metadata");
  const key = await aesKey(await hkdf(secret, LABELS.meta, 32));
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: META_AAD },
      key,
      bytes.slice(12),
    );
  } catch {
    throw new E2EError("integrity", "the metadata does not authenticate");
  }
  try {
    const meta = JSON.parse(new TextDecoder().decode(plain));
    if (typeof meta?.name !== "string" || typeof meta?.type !== "string") throw new Error();
    return { name: meta.name, type: meta.type };
  } catch {
    throw new E2EError("format", "malformed metadata");
  }
}
