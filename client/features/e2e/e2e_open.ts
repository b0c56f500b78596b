/**
 * Opening end-to-end encrypted shares in the browser (docs/E2E.md): the key comes from the
 * page's fragment (never sent: browsers leave fragments out of requests and referrers), the
 * password from the visitor, the access token from both. The token opens the share on the
 * server (one counted view), and what comes back is decrypted here. Every failure is one of a
 * few problems the page explains; nothing decrypted is shown unless all of it authenticated.
 *
 * Share opens go without credentials and never through the offline queue, which would keep
 * the token in IndexedDB.
 */
import { api, ApiError } from "../../api/client.ts";
import {
  accessToken,
  E2E_VERSION,
  parseLinkKey,
  type ShareSecret,
  shareSecret,
} from "../../../shared/e2e/keys.ts";
import { decryptMeta, decryptText, type FileMeta } from "../../../shared/e2e/payloads.ts";
import {
  decryptStream,
  DEFAULT_RECORD_SIZE,
  E2EError,
  plaintextSize,
} from "../../../shared/e2e/stream.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";
import type { PasteView } from "../pastes/pastes_api.ts";
import { apiHref, type PublicFileView } from "../files/files_api.ts";

/** What keeps a share closed, as the page words it (e2e.errors.<problem>). */
export type E2EProblem =
  | "noKey"
  | "badKey"
  | "wrongKey"
  | "wrongPassword"
  | "damaged"
  | "unsupported"
  | "noCrypto";

/** A problem the page explains; other errors (gone, expired, 429) are ApiErrors. */
export class E2EOpenError extends Error {
  constructor(readonly problem: E2EProblem) {
    super(problem);
    this.name = "E2EOpenError";
  }
}

/** The problem of a decryption failure. */
function problemOf(err: unknown): never {
  if (err instanceof E2EError) {
    throw new E2EOpenError(err.reason === "version" ? "unsupported" : "damaged");
  }
  throw err;
}

/**
 * The share secret from the page's fragment and the password. Throws E2EOpenError noKey,
 * badKey, unsupported (a newer format) or noCrypto (no WebCrypto: not a secure page).
 */
export async function secretFromLink(
  hash: string,
  descriptor: E2EDescriptor,
  password: string | null,
): Promise<ShareSecret> {
  if (descriptor.version !== E2E_VERSION) throw new E2EOpenError("unsupported");
  if (!globalThis.crypto?.subtle) throw new E2EOpenError("noCrypto");
  if (hash === "" || hash === "#") throw new E2EOpenError("noKey");
  const key = parseLinkKey(hash);
  if (!key) throw new E2EOpenError("badKey");
  return await shareSecret(key, password);
}

/** Opens with the access token; a refused token is a wrong key or password. */
async function unlock<T>(path: string, secret: ShareSecret, hasPassword: boolean): Promise<T> {
  try {
    return await api<T>(path, {
      method: "POST",
      body: { password: await accessToken(secret) },
      anonymous: true,
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === "wrong_password") {
      throw new E2EOpenError(hasPassword ? "wrongPassword" : "wrongKey");
    }
    throw err;
  }
}

/** Opens and decrypts a text share (counts one view); resolves with the view and its text. */
export async function openEncryptedPaste(
  slug: string,
  descriptor: E2EDescriptor,
  hash: string,
  password: string | null,
): Promise<{ paste: PasteView; text: string }> {
  const secret = await secretFromLink(hash, descriptor, password);
  const paste = await unlock<PasteView>(
    `/paste/${encodeURIComponent(slug)}`,
    secret,
    descriptor.has_password,
  );
  const text = await decryptText(secret, paste.content ?? "").catch(problemOf);
  return { paste: { ...paste, content: text }, text };
}

/** An opened encrypted file: its links, real name and type, plaintext size and secret. */
export type OpenedFile = {
  file: PublicFileView;
  meta: FileMeta;
  /** Plaintext bytes (as written with Cubby's record size), or null when unknown. */
  size: number | null;
  secret: ShareSecret;
};

/** Opens a file share (counts one view) and decrypts its name and type. */
export async function openEncryptedFile(
  slug: string,
  descriptor: E2EDescriptor,
  hash: string,
  password: string | null,
): Promise<OpenedFile> {
  const secret = await secretFromLink(hash, descriptor, password);
  const file = await unlock<PublicFileView>(
    `/public/files/${encodeURIComponent(slug)}/verify`,
    secret,
    descriptor.has_password,
  );
  const meta = await decryptMeta(secret, file.e2e?.meta ?? "").catch(problemOf);
  return { file, meta, size: plaintextSize(file.size, DEFAULT_RECORD_SIZE), secret };
}

/**
 * Fetches and decrypts a whole file into memory (previews, and downloads without a service
 * worker), at most `max` ciphertext bytes. Throws E2EOpenError damaged, ApiError for HTTP.
 */
export async function decryptToBlob(
  opened: OpenedFile,
  max: number,
  signal?: AbortSignal,
): Promise<Blob> {
  if (opened.file.size > max) throw new RangeError("too large to decrypt in memory");
  let res: Response;
  try {
    res = await fetch(apiHref(opened.file.download_url), { signal, credentials: "omit" });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError("network_error", 0, null);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw new ApiError("request_failed", res.status, null);
  }
  const parts: Uint8Array<ArrayBuffer>[] = [];
  await res.body.pipeThrough(decryptStream(opened.secret))
    .pipeTo(new WritableStream({ write: (c) => void parts.push(c as Uint8Array<ArrayBuffer>) }))
    .catch(problemOf);
  return new Blob(parts, { type: opened.meta.type || "application/octet-stream" });
}
