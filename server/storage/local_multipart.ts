/**
 * Multipart uploads on the local filesystem, shaped like S3's: each upload is a folder
 * `.cubby-multipart/<ULID>/` holding `upload.json` (key, content type, start time) and one
 * file per part (`part-00001`…), each written atomically. Complete checks the list like S3
 * does (order, ETags, 5 MiB minimum but for the last part), concatenates the parts by
 * streaming into a temp file and renames it into place.
 */
import { join } from "node:path";
import { ulid } from "../lib/ulid.ts";
import { AppError } from "../errors.ts";
import { bareEtag } from "./driver_wire.ts";
import {
  type CompletedPart,
  MIN_PART_SIZE,
  type MultipartUploadInfo,
  type PartInfo,
  type PutBody,
  validatePartNumber,
  validatePrefix,
} from "./driver.ts";
import { toByteStream } from "./driver_streams.ts";
import { ignoreMissing, noUpload } from "./local_errors.ts";
import { commitTemp, concatFiles, etagOf, writeTemp } from "./local_files.ts";
import type { LocalRoot } from "./local_paths.ts";

/** What multipart needs of a local driver: its root, and whether writes are fsynced. */
export type LocalStore = { root: LocalRoot; fsync: boolean };

const UPLOAD_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const PART_FILE = /^part-(\d{5})$/;

function partFile(dir: string, partNumber: number): string {
  return join(dir, `part-${String(partNumber).padStart(5, "0")}`);
}

/** The staging folder of an upload of `key`; 404 `storage_upload_not_found` otherwise. */
async function staging(s: LocalStore, key: string, uploadId: string): Promise<string> {
  await s.root.pathOf(key);
  if (typeof uploadId !== "string" || !UPLOAD_ID.test(uploadId)) throw noUpload(uploadId);
  const dir = join(await s.root.stagingDir(), uploadId);
  try {
    const meta = JSON.parse(await Deno.readTextFile(join(dir, "upload.json")));
    if (meta.key !== key) throw noUpload(uploadId);
    return dir;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Deno.errors.NotFound) throw noUpload(uploadId);
    throw err;
  }
}

/** Starts an upload and returns its id (a ULID); throws 400 on a bad key. */
export async function createUpload(
  s: LocalStore,
  key: string,
  opts: { contentType?: string } = {},
): Promise<string> {
  await s.root.pathOf(key);
  const uploadId = ulid();
  const dir = join(await s.root.stagingDir(), uploadId);
  await Deno.mkdir(dir, { recursive: true });
  const meta = { key, contentType: opts.contentType, initiated: new Date().toISOString() };
  await Deno.writeTextFile(join(dir, "upload.json"), JSON.stringify(meta));
  return uploadId;
}

/** Writes one part, replacing any earlier one of that number; 404 when the upload is gone. */
export async function uploadPartFile(
  s: LocalStore,
  key: string,
  uploadId: string,
  partNumber: number,
  body: PutBody,
  size?: number,
): Promise<{ etag: string }> {
  validatePartNumber(partNumber);
  const dir = await staging(s, key, uploadId);
  const { stream, size: known } = toByteStream(body, size);
  const { tmp } = await writeTemp(await s.root.tmpDir(), stream, known, { fsync: s.fsync });
  const path = partFile(dir, partNumber);
  try {
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    if (err instanceof Deno.errors.NotFound) throw noUpload(uploadId); // aborted meanwhile
    throw err;
  }
  return { etag: etagOf(await Deno.stat(path)) };
}

/** The parts written so far, by part number. */
export async function listUploadParts(
  s: LocalStore,
  key: string,
  uploadId: string,
): Promise<PartInfo[]> {
  const dir = await staging(s, key, uploadId);
  const parts: PartInfo[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const m = PART_FILE.exec(entry.name);
    if (!m || !entry.isFile) continue;
    const info = await Deno.stat(join(dir, entry.name));
    parts.push({ partNumber: Number(m[1]), etag: etagOf(info), size: info.size });
  }
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

/**
 * Assembles the listed parts into the object and removes the upload. Throws 400
 * `storage_multipart_invalid` on an empty, unordered or stale list, or a small middle part.
 */
export async function completeUpload(
  s: LocalStore,
  key: string,
  uploadId: string,
  parts: CompletedPart[],
): Promise<{ etag: string; size: number }> {
  const dir = await staging(s, key, uploadId);
  const invalid = (reason: string) =>
    new AppError("storage_multipart_invalid", 400, { uploadId, reason });
  if (!Array.isArray(parts) || parts.length === 0) throw invalid("no parts");
  const uploaded = new Map(
    (await listUploadParts(s, key, uploadId)).map((p) => [p.partNumber, p]),
  );
  parts.forEach((part, i) => {
    validatePartNumber(part.partNumber);
    if (i > 0 && part.partNumber <= parts[i - 1].partNumber) throw invalid("parts out of order");
    const found = uploaded.get(part.partNumber);
    if (!found || bareEtag(found.etag) !== bareEtag(part.etag)) {
      throw invalid(`part ${part.partNumber} is missing or changed`);
    }
    if (i < parts.length - 1 && found.size < MIN_PART_SIZE) {
      throw invalid(`part ${part.partNumber} is smaller than 5 MiB`);
    }
  });
  const files = parts.map((p) => partFile(dir, p.partNumber));
  const path = await s.root.writable(key);
  const tmpDir = await s.root.tmpDir();
  const { tmp } = await writeTemp(tmpDir, concatFiles(files), undefined, { fsync: s.fsync });
  const result = await commitTemp(tmp, path, key);
  await Deno.remove(dir, { recursive: true }).catch(ignoreMissing);
  return result;
}

/** Discards an upload and its parts; an upload already gone counts as aborted. */
export async function abortUpload(s: LocalStore, key: string, uploadId: string): Promise<void> {
  let dir: string;
  try {
    dir = await staging(s, key, uploadId);
  } catch (err) {
    if (err instanceof AppError && err.code === "storage_upload_not_found") return;
    throw err;
  }
  await Deno.remove(dir, { recursive: true }).catch(ignoreMissing);
}

/** Open uploads whose key starts with `prefix`, by key then id. */
export async function listUploads(s: LocalStore, prefix = ""): Promise<MultipartUploadInfo[]> {
  validatePrefix(prefix);
  const out: MultipartUploadInfo[] = [];
  const stagingDir = await s.root.stagingDir();
  try {
    for await (const entry of Deno.readDir(stagingDir)) {
      if (!UPLOAD_ID.test(entry.name)) continue;
      try {
        const meta = JSON.parse(
          await Deno.readTextFile(join(stagingDir, entry.name, "upload.json")),
        );
        if (typeof meta.key !== "string" || !meta.key.startsWith(prefix)) continue;
        out.push({ key: meta.key, uploadId: entry.name, initiated: new Date(meta.initiated) });
      } catch {
        continue; // being created or aborted right now
      }
    }
  } catch (err) {
    ignoreMissing(err);
  }
  return out.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.uploadId < b.uploadId ? -1 : 1
  );
}
