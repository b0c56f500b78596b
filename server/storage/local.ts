/**
 * The local filesystem driver: objects are plain files under one root directory.
 *
 * - Containment and reserved names: `local_paths.ts`. No key, `..` or symlink reaches
 *   outside the root; top-level `.cubby-*` names are the driver's own.
 * - Atomic writes (temp file, fsync, rename), streamed reads and ETags: `local_files.ts`.
 * - Listings in S3 key order with cursors: `local_walk.ts`.
 * - Multipart uploads staged in `.cubby-multipart/`: `local_multipart.ts`.
 * - "Presigned" URLs point back at Cubby and are signed: `local_signed.ts`.
 * - Content type: from the key's extension. The `contentType` given to `put` is not stored
 *   (there is no metadata store here); callers that need it keep it in their own records.
 * - Deleting an object removes parent folders it leaves empty, as S3 "folders" vanish.
 */
import { dirname, join } from "node:path";
import { ulid } from "../lib/ulid.ts";
import { AppError } from "../errors.ts";
import {
  type CompletedPart,
  type GetResult,
  type ListOptions,
  type ListResult,
  type MultipartUploadInfo,
  type ObjectInfo,
  type PartInfo,
  type PresignGetOptions,
  type PutBody,
  type PutOptions,
  resolveRange,
  type StorageDriver,
  validatePartNumber,
  validatePrefix,
} from "./driver.ts";
import { contentTypeFor } from "./driver_wire.ts";
import { toByteStream } from "./driver_streams.ts";
import { fsError, ignoreMissing, notFound } from "./local_errors.ts";
import { commitTemp, etagOf, fileStream, infoOf, writeTemp } from "./local_files.ts";
import {
  abortUpload,
  completeUpload,
  createUpload,
  listUploadParts,
  listUploads,
  type LocalStore,
  uploadPartFile,
} from "./local_multipart.ts";
import { LocalRoot, RESERVED_PREFIX } from "./local_paths.ts";
import {
  type SignedRequest,
  signedUrl,
  type SigningConfig,
  verifySignedUrl,
} from "./local_signed.ts";
import { listLocal } from "./local_walk.ts";
import { holdTemp, releaseTemp } from "./temp_files.ts";

export { RESERVED_PREFIX } from "./local_paths.ts";
export type { SignedRequest } from "./local_signed.ts";

/** The settings of one local driver (one local storage config). */
export type LocalDriverOptions = {
  /** The directory holding every object; created when missing. */
  root: string;
  /** HMAC secret for presigned Cubby URLs. */
  signingSecret: string;
  /** The storage config id; every signed URL is bound to it. */
  configId: string;
  /** Absolute URL or path that the local storage route is mounted at, e.g. `/api/storage/local`. */
  urlPrefix: string;
  /** fsync each file before renaming it into place (default true). */
  fsync?: boolean;
};

/** A storage driver over one directory of the local filesystem. */
export class LocalDriver implements StorageDriver {
  readonly #root: LocalRoot;
  readonly #store: LocalStore;
  readonly #signing: SigningConfig;

  constructor(opts: LocalDriverOptions) {
    if (!opts.signingSecret) throw new Error("LocalDriver needs a signingSecret");
    if (!opts.configId) throw new Error("LocalDriver needs a configId");
    this.#root = new LocalRoot(opts.root);
    this.#store = { root: this.#root, fsync: opts.fsync ?? true };
    this.#signing = {
      signingSecret: opts.signingSecret,
      urlPrefix: opts.urlPrefix.replace(/\/+$/, ""),
      scope: opts.configId,
    };
  }

  async #writeTemp(stream: ReadableStream<Uint8Array>, size?: number, signal?: AbortSignal) {
    const tmpDir = await this.#root.tmpDir();
    return await writeTemp(tmpDir, stream, size, { fsync: this.#store.fsync, signal });
  }

  async put(key: string, body: PutBody, opts: PutOptions = {}) {
    const path = await this.#root.writable(key);
    const { stream, size } = toByteStream(body, opts.size);
    const { tmp } = await this.#writeTemp(stream, size, opts.signal);
    return await commitTemp(tmp, path, key);
  }

  async get(
    key: string,
    opts: { range?: { start: number; end?: number }; signal?: AbortSignal } = {},
  ): Promise<GetResult> {
    const found = await this.#root.existing(key);
    if (!found) throw notFound(key);
    const file = await Deno.open(found.path, { read: true });
    try {
      const info = await file.stat(); // the file we opened, even if the path is replaced now
      const total = info.size;
      const range = opts.range ? { ...resolveRange(opts.range, total), total } : undefined;
      if (range) await file.seek(range.start, Deno.SeekMode.Start);
      const size = range ? range.end - range.start + 1 : total;
      // A read to the end of the file is the file's own stream, which Deno's HTTP server sends
      // straight from the file, without a buffer per chunk or a hop through JavaScript.
      const toEnd = !range || range.end === total - 1;
      return {
        body: toEnd && !opts.signal ? file.readable : fileStream(file, size, opts.signal),
        size,
        contentType: contentTypeFor(key),
        etag: etagOf(info),
        lastModified: info.mtime ?? new Date(0),
        range,
      };
    } catch (err) {
      file.close();
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const found = await this.#root.existing(key);
    return found ? { ...infoOf(key, found.info), contentType: contentTypeFor(key) } : null;
  }

  async delete(key: string): Promise<void> {
    const path = await this.#root.pathOf(key);
    await this.#root.assertInside(dirname(path), key);
    try {
      const info = await Deno.lstat(path);
      if (info.isDirectory) return; // a folder is not an object
      await Deno.remove(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return;
      throw err;
    }
    await this.#root.prune(dirname(path));
  }

  async createFolder(key: string): Promise<void> {
    const path = await this.#root.writable(key);
    try {
      await Deno.mkdir(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
      if (!(await Deno.stat(path)).isDirectory) {
        throw new AppError("storage_conflict", 409, { key });
      }
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    validatePrefix(prefix);
    if (prefix === "") throw new AppError("storage_path_invalid", 400, { key: prefix });
    const slash = prefix.lastIndexOf("/");
    const leaf = prefix.slice(slash + 1);
    const dir = slash < 0
      ? await this.#root.real()
      : await this.#root.pathOf(prefix.slice(0, slash));
    if (slash >= 0) await this.#root.assertInside(dir, prefix);
    if (leaf === "") {
      await Deno.remove(dir, { recursive: true }).catch(ignoreMissing);
    } else {
      const atRoot = slash < 0;
      try {
        for await (const entry of Deno.readDir(dir)) {
          if (!entry.name.startsWith(leaf)) continue;
          if (atRoot && entry.name.startsWith(RESERVED_PREFIX)) continue;
          await Deno.remove(join(dir, entry.name), { recursive: true }).catch(ignoreMissing);
        }
      } catch (err) {
        ignoreMissing(err);
      }
    }
    if (slash >= 0) await this.#root.prune(leaf === "" ? dirname(dir) : dir);
  }

  async copy(from: string, to: string): Promise<void> {
    const found = await this.#root.existing(from);
    if (!found) throw notFound(from);
    if (from === to) return;
    const path = await this.#root.writable(to);
    const tmp = join(await this.#root.tmpDir(), `${ulid()}.tmp`);
    holdTemp(tmp); // released by commitTemp
    try {
      await Deno.copyFile(found.path, tmp);
    } catch (err) {
      await Deno.remove(tmp).catch(() => {});
      releaseTemp(tmp);
      throw fsError(err, from);
    }
    await commitTemp(tmp, path, to);
  }

  async move(from: string, to: string): Promise<void> {
    const source = await this.#root.pathOf(from);
    if (!(await this.#root.existing(from))) throw notFound(from);
    if (from === to) return;
    const path = await this.#root.writable(to);
    try {
      await Deno.rename(source, path);
    } catch (err) {
      throw fsError(err, to);
    }
    await this.#root.prune(dirname(source));
  }

  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return listLocal(this.#root, prefix, opts);
  }

  /**
   * What is at a key in one `realPath` and one `stat`, where telling a folder by a listing
   * would read it whole: an object (symlinks inside the root count, as for `head`), a folder,
   * or nothing. A linked folder is no folder (listings skip it); a path that reaches outside
   * the root is 400, as for `head`.
   */
  async lookup(key: string): Promise<ObjectInfo | "folder" | null> {
    const path = await this.#root.pathOf(key);
    const found = await this.#root.resolved(key, path);
    if (!found) return null;
    if (found.info.isFile) return { ...infoOf(key, found.info), contentType: contentTypeFor(key) };
    if (!found.info.isDirectory) return null;
    if (found.path === path) return "folder";
    return (await Deno.lstat(path)).isDirectory ? "folder" : null; // a link somewhere above
  }

  // deno-lint-ignore require-await
  async presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    const params: Record<string, string> = {};
    if (opts.filename) params.filename = opts.filename;
    if (opts.contentType) params.ct = opts.contentType;
    if (opts.download) params.dl = "1";
    return signedUrl(this.#signing, "get", key, opts.expiresIn, params);
  }

  // deno-lint-ignore require-await
  async presignPut(
    key: string,
    opts: { expiresIn: number; contentType?: string; size?: number },
  ) {
    const params: Record<string, string> = {};
    if (opts.contentType) params.ct = opts.contentType;
    if (opts.size !== undefined) {
      if (!Number.isSafeInteger(opts.size) || opts.size < 0) {
        throw new Error(`size must be a non-negative integer, got ${opts.size}`);
      }
      params.size = String(opts.size);
    }
    return signedUrl(this.#signing, "put", key, opts.expiresIn, params);
  }

  // deno-lint-ignore require-await
  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { expiresIn: number },
  ) {
    validatePartNumber(partNumber);
    const params = { uploadId, partNumber: String(partNumber) };
    return signedUrl(this.#signing, "part", key, opts.expiresIn, params);
  }

  /**
   * Checks a presigned Cubby URL for a request method and returns what it allows.
   * Throws 403 `storage_signature_invalid` / `storage_signature_expired`, or 400 for a bad key.
   */
  verifySignedRequest(url: URL | string, method: string, now?: number): SignedRequest {
    return verifySignedUrl(this.#signing, url, method, now);
  }

  createMultipart(key: string, opts: { contentType?: string } = {}): Promise<string> {
    return createUpload(this.#store, key, opts);
  }

  uploadPart(key: string, uploadId: string, partNumber: number, body: PutBody, size?: number) {
    return uploadPartFile(this.#store, key, uploadId, partNumber, body, size);
  }

  listParts(key: string, uploadId: string): Promise<PartInfo[]> {
    return listUploadParts(this.#store, key, uploadId);
  }

  completeMultipart(key: string, uploadId: string, parts: CompletedPart[]) {
    return completeUpload(this.#store, key, uploadId, parts);
  }

  abortMultipart(key: string, uploadId: string): Promise<void> {
    return abortUpload(this.#store, key, uploadId);
  }

  listMultipartUploads(prefix = ""): Promise<MultipartUploadInfo[]> {
    return listUploads(this.#store, prefix);
  }

  stat() {
    return { presign: true, multipart: true, kind: "local" as const };
  }

  close(): void {}
}
