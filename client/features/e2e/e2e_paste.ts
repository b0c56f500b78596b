/**
 * Creating an end-to-end encrypted text share (docs/E2E.md): the text is encrypted here, the
 * server gets the ciphertext and the access token as the password, and the returned link
 * carries the key in its fragment. Never queued offline: a queued write would have to keep the
 * key until it is sent.
 */
import { api } from "../../api/client.ts";
import {
  accessToken,
  E2E_VERSION,
  encodeLinkKey,
  newLinkKey,
  shareSecret,
} from "../../../shared/e2e/keys.ts";
import { encryptText } from "../../../shared/e2e/payloads.ts";
import type { CreatePasteInput, PasteView } from "../pastes/pastes_api.ts";

/**
 * Encrypts and creates a paste; resolves with its view as the creator sees it (the link with
 * the key, the plaintext, `has_password` for the user's password). Throws ApiError.
 */
export async function createEncryptedPaste(input: CreatePasteInput): Promise<PasteView> {
  const key = newLinkKey();
  const password = input.password || null;
  const secret = await shareSecret(key, password);
  const view = await api<PasteView>("/paste", {
    method: "POST",
    body: {
      ...input,
      content: await encryptText(secret, input.content),
      password: await accessToken(secret),
      e2e: { version: E2E_VERSION, has_password: password !== null },
    },
  });
  return {
    ...view,
    content: input.content,
    url: `${view.url}#${encodeLinkKey(key)}`,
    has_password: password !== null,
  };
}
