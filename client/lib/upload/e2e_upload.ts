/**
 * End-to-end encrypted uploads (docs/E2E.md). The file is encrypted in this browser and the
 * server receives only ciphertext, a neutral name and type, the sealed real ones (`e2e.meta`)
 * and the access token as the share's password. The link key never leaves the page except in
 * the returned link's fragment.
 *
 * Above the multipart threshold the file goes up in parts, each encrypted when a worker takes
 * it (encryptRange): records have a fixed size, so any part can be made on its own, and made
 * again identically after a reload. That keeps memory to a few parts whatever the file's size,
 * and lets a reload resume: the key material of an unfinished upload is kept in this tab's
 * sessionStorage (gone when the tab closes; deleted when the upload ends or is cancelled).
 * Smaller files are encrypted whole and take the form or presigned flow.
 */
import { contentTypeFor } from "../../../shared/mime.ts";
import { fromBase64Url, toBase64Url } from "../../../shared/e2e/bytes.ts";
import {
  accessToken,
  E2E_VERSION,
  encodeLinkKey,
  linkKeyOf,
  newLinkKey,
  type ShareSecret,
  shareSecret,
} from "../../../shared/e2e/keys.ts";
import { encryptMeta } from "../../../shared/e2e/payloads.ts";
import {
  ciphertextSize,
  DEFAULT_RECORD_SIZE,
  encryptRange,
  makeHeader,
  RecordCipher,
} from "../../../shared/e2e/stream.ts";
import { E2E_STORED_NAME, E2E_STORED_TYPE } from "../../../shared/e2e/descriptor.ts";
import { ApiError } from "../../api/client.ts";
import { type SimpleUpload, uploadViaForm, uploadViaPresign } from "./form.ts";
import { S3_MULTIPART, uploadViaMultipart } from "./share_multipart.ts";
import { findResume, forgetResume, type ResumeKey, resumeKeyOf } from "./resume_store.ts";
import type { ProgressReporter } from "./speed.ts";
import { type FileView, PAUSE_REASON, type UploadBlob, type UploadRequest } from "./types.ts";

/** What an unfinished encrypted upload needs to go on after a reload. */
type Material = { ikm: string; salt: string; hasPassword: boolean; savedAt: number };

/** Key material younger than this is kept while its upload has no resume record yet. */
const MATERIAL_GRACE_MS = 10 * 60_000;

const MATERIAL_PREFIX = "cubby.e2e.upload:";

const materialKey = (key: ResumeKey) =>
  MATERIAL_PREFIX + JSON.stringify([key.name, key.size, key.lastModified, key.configId]);

function session(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function loadMaterial(key: ResumeKey | null): Material | null {
  if (!key) return null;
  try {
    const m = JSON.parse(session()?.getItem(materialKey(key)) ?? "null");
    return typeof m?.ikm === "string" && typeof m?.salt === "string" ? m : null;
  } catch {
    return null;
  }
}

/** Drops the key material of uploads that can no longer resume (removed, aborted, expired). */
function pruneMaterial(now = Date.now()): void {
  const store = session();
  if (!store) return;
  for (const name of Object.keys(store)) {
    if (!name.startsWith(MATERIAL_PREFIX)) continue;
    try {
      const [n, size, lastModified, configId] = JSON.parse(name.slice(MATERIAL_PREFIX.length));
      const m = JSON.parse(store.getItem(name) ?? "null") as Material | null;
      const key = { name: n, size, lastModified, configId, e2e: true };
      if (!findResume(key) && !(m && now - m.savedAt < MATERIAL_GRACE_MS)) store.removeItem(name);
    } catch {
      store.removeItem(name);
    }
  }
}

function saveMaterial(key: ResumeKey | null, m: Material): void {
  if (!key) return;
  try {
    session()?.setItem(materialKey(key), JSON.stringify(m));
  } catch { /* storage unavailable: the upload just cannot resume after a reload */ }
}

/** Forgets the key material of an upload (finished, cancelled or not resumable). */
export function forgetMaterial(key: ResumeKey | null): void {
  if (key) session()?.removeItem(materialKey(key));
}

/**
 * The secret and stream salt of an upload: the ones kept for an unfinished upload of this file,
 * or fresh ones (an unfinished upload whose key is gone is dropped: its parts are useless).
 */
async function secretFor(
  resumeKey: ResumeKey | null,
  password: string | undefined,
): Promise<{ secret: ShareSecret; salt: Uint8Array<ArrayBuffer>; hasPassword: boolean }> {
  pruneMaterial();
  const kept = loadMaterial(resumeKey);
  const pending = resumeKey && findResume(resumeKey);
  if (kept && pending) {
    const ikm = fromBase64Url(kept.ikm);
    const salt = fromBase64Url(kept.salt);
    if (ikm && salt) return { secret: { ikm }, salt, hasPassword: kept.hasPassword };
  }
  if (pending) forgetResume(pending.fileId);
  const secret = await shareSecret(newLinkKey(), password || null);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  saveMaterial(resumeKey, {
    ikm: toBase64Url(secret.ikm),
    salt: toBase64Url(salt),
    hasPassword: !!password,
    savedAt: Date.now(),
  });
  return { secret, salt, hasPassword: !!password };
}

/** Plaintext bytes [start, end) of a file. */
function reader(file: Blob) {
  return async (start: number, end: number) =>
    new Uint8Array(await file.slice(start, end).arrayBuffer());
}

/**
 * Encrypts and uploads one file; resolves with the share as the uploader sees it: its link
 * with the key in the fragment, and the real name, type and size. Throws what uploadFile does.
 */
export async function uploadEncrypted(
  req: UploadRequest & { file: UploadBlob },
  report: ProgressReporter,
  threshold: number,
): Promise<FileView> {
  const file = req.file;
  const filename = (req.filename ?? file.name ?? "").trim() || "file";
  const type = contentTypeFor(filename, file.type);
  const sealedSize = ciphertextSize(file.size);
  const multipart = req.method === "multipart" || sealedSize > threshold;
  const resumeKey = multipart ? resumeKeyOf(file, filename, req.options.s3ConfigId, true) : null;
  const { secret, salt, hasPassword } = await secretFor(resumeKey, req.options.password);
  const cipher = await RecordCipher.create(secret, makeHeader(DEFAULT_RECORD_SIZE, salt));
  const read = reader(file);
  const upload: SimpleUpload = {
    blob: file,
    filename: E2E_STORED_NAME,
    mimetype: E2E_STORED_TYPE,
    options: {
      ...req.options,
      password: await accessToken(secret),
      e2e: {
        version: E2E_VERSION,
        has_password: hasPassword,
        meta: await encryptMeta(secret, { name: filename, type }),
      },
    },
    signal: req.signal,
    idleTimeoutMs: req.idleTimeoutMs,
  };
  let view: FileView;
  try {
    if (multipart) {
      const source = {
        size: sealedSize,
        read: async (start: number, end: number) =>
          new Blob(await encryptRange(cipher, file.size, read, start, end)),
      };
      view = await uploadViaMultipart({ ...upload, source }, report, {
        routes: S3_MULTIPART,
        resumeKey,
      });
    } else {
      const sealed = new Blob(await encryptRange(cipher, file.size, read, 0, sealedSize));
      const whole = { ...upload, blob: sealed };
      view = req.method === "presign"
        ? await uploadViaPresign(whole, report)
        : await uploadViaForm(whole, report);
    }
  } catch (err) {
    // A paused upload keeps its key for the resume; a failed one too (Retry resumes it).
    const paused = req.signal?.aborted && req.signal.reason === PAUSE_REASON;
    const resumable = err instanceof ApiError && err.params.resumable === true;
    if (!paused && !resumable) forgetMaterial(resumeKey);
    throw err;
  }
  forgetMaterial(resumeKey);
  return {
    ...view,
    url: `${view.url}#${encodeLinkKey(linkKeyOf(secret))}`,
    filename,
    mimetype: type,
    size: file.size,
    has_password: hasPassword,
  };
}
