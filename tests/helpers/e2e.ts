/**
 * End-to-end encrypted share material for tests, made with the format module the browser and
 * the command-line client use (shared/e2e): a link key, its access token, and the ciphertext of
 * a text or a file with its sealed metadata.
 */
import { accessToken, encodeLinkKey, newLinkKey, shareSecret } from "../../shared/e2e/keys.ts";
import { encryptMeta, encryptText } from "../../shared/e2e/payloads.ts";
import { encryptBytes, makeHeader } from "../../shared/e2e/stream.ts";

/** A share's key material: the fragment, the access token and the secret. */
export async function e2eKeys(password: string | null = null) {
  const key = newLinkKey();
  const secret = await shareSecret(key, password);
  return { key, fragment: encodeLinkKey(key), token: await accessToken(secret), secret };
}

/** The body of POST /api/paste for an end-to-end encrypted text, with its keys. */
export async function e2ePaste(text: string, password: string | null = null) {
  const keys = await e2eKeys(password);
  return {
    ...keys,
    body: {
      content: await encryptText(keys.secret, text),
      password: keys.token,
      e2e: { version: 1, has_password: password !== null },
    },
  };
}

/** The ciphertext and `e2e` descriptor of a file (`recordSize` small to make many records). */
export async function e2eFile(
  bytes: Uint8Array,
  meta: { name: string; type: string },
  password: string | null = null,
  recordSize = 64 * 1024,
) {
  const keys = await e2eKeys(password);
  return {
    ...keys,
    sealed: await encryptBytes(keys.secret, bytes, makeHeader(recordSize)),
    e2e: {
      version: 1,
      has_password: password !== null,
      meta: await encryptMeta(keys.secret, meta),
    },
  };
}
