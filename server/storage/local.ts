/**
 * The local filesystem driver: objects are plain files under one root directory.
 *
 * - Containment: every key is validated, then the real path of the file (or of its nearest
 *   existing ancestor, before anything is created) must lie inside the real root, so neither
 *   `..` nor a symlink can reach outside it (400 `storage_path_invalid`). Listings skip
 *   symlinked directories and symlinks that resolve outside the root.
 * - Atomic writes: bytes stream into a temp file under `.cubby-tmp/`, are fsynced, then
 *   renamed over the target, so readers see the old object or the new one, never half.
 * - Multipart is done here: parts are files in `.cubby-multipart/<uploadId>/`, concatenated
 *   by streaming on complete, then renamed into place. Top-level names starting with
 *   `.cubby-` are reserved, never listed and refused as keys.
 * - ETag: `"<inode>-<mtime ms>-<size>"` in hex, from one stat (like Apache's); a rename-based
 *   write gives a new inode, so an overwrite changes the ETag even within one millisecond.
 * - Content type: from the key's extension. The `contentType` given to `put` is not stored
 *   (there is no metadata store here); callers that need it keep it in their own records.
 * - Deleting an object removes parent folders it leaves empty, as S3 "folders" vanish.
 * - "Presigned" URLs point back at Cubby (`urlPrefix/<key>?op=…&exp=…&sig=…`), signed by
 *   `signing.ts`; `verifySignedRequest` is what the serving route calls.
 */
import { dirname, join, sep } from "node:path";
import { ulid } from "ulid";
import { AppError } from "../errors.ts";
import {
  bareEtag,
  clampLimit,
  type CompletedPart,
  contentTypeFor,
  decodeCursor,
  encodeCursor,
  encodeKeyPath,
  type GetResult,
  type ListOptions,
  type ListResult,
  MIN_PART_SIZE,
  type MultipartUploadInfo,
  type ObjectInfo,
  type PartInfo,
  type PresignGetOptions,
  type PutBody,
  type PutOptions,
  resolveRange,
  type StorageDriver,
  toByteStream,
  validateKey,
  validatePartNumber,
  validatePrefix,
} from "./driver.ts";
import { type SignedOp, signStorageQuery, verifyStorageQuery } from "./signing.ts";

export type LocalDriverOptions = {
  /** The directory holding every object; created when missing. */
  root: string;
  /** HMAC secret for presigned Cubby URLs. */
  signingSecret: string;
  /** Absolute URL or path that the local storage route is mounted at, e.g. `/api/storage/local`. */
  urlPrefix: string;
  /** fsync each file before renaming it into place (default true). */
  fsync?: boolean;
};

/** What a verified presigned Cubby URL allows. */
export type SignedRequest = {
  op: SignedOp;
  key: string;
  filename?: string;
  contentType?: string;
  download: boolean;
  uploadId?: string;
  partNumber?: number;
};

const TMP_DIR = ".cubby-tmp";
const STAGING_DIR = ".cubby-multipart";
export const RESERVED_PREFIX = ".cubby-";
const CHUNK = 256 * 1024;
const UPLOAD_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const PART_FILE = /^part-(\d{5})$/;

export class LocalDriver implements StorageDriver {
  readonly #opts: Required<LocalDriverOptions>;
  #rootReal: Promise<string> | null = null;

  constructor(opts: LocalDriverOptions) {
    if (!opts.signingSecret) throw new Error("LocalDriver needs a signingSecret");
    this.#opts = { fsync: true, ...opts, urlPrefix: opts.urlPrefix.replace(/\/+$/, "") };
  }

  /** The real path of the root, created on first use. */
  #root(): Promise<string> {
    return this.#rootReal ??= (async () => {
      await Deno.mkdir(this.#opts.root, { recursive: true });
      const real = await Deno.realPath(this.#opts.root);
      await Deno.mkdir(join(real, TMP_DIR), { recursive: true });
      return real;
    })();
  }

  #isInside(root: string, real: string): boolean {
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  }

  /** Validates a key (reserved names included) and joins it onto the real root. */
  async #pathOf(key: string): Promise<string> {
    validateKey(key);
    if (key.split("/")[0].startsWith(RESERVED_PREFIX)) {
      throw new AppError("storage_path_invalid", 400, { key });
    }
    return join(await this.#root(), ...key.split("/"));
  }

  /** Throws 400 unless the nearest existing ancestor of `path` (or itself) is inside root. */
  async #assertInside(path: string, key: string): Promise<void> {
    const root = await this.#root();
    for (let p = path;; p = dirname(p)) {
      try {
        if (!this.#isInside(root, await Deno.realPath(p))) break;
        return;
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory)) {
          throw err;
        }
        if (p === root || dirname(p) === p) break;
      }
    }
    throw new AppError("storage_path_invalid", 400, { key });
  }

  /** The path of an existing regular file with its stat, or null when it does not exist. */
  async #existing(key: string): Promise<{ path: string; info: Deno.FileInfo } | null> {
    const path = await this.#pathOf(key);
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
        return null;
      }
      throw err;
    }
    if (!this.#isInside(await this.#root(), real)) {
      throw new AppError("storage_path_invalid", 400, { key });
    }
    const info = await Deno.stat(real);
    return info.isFile ? { path: real, info } : null;
  }

  /** Prepares the parent folders of a key for writing and returns its path. */
  async #writable(key: string): Promise<string> {
    const path = await this.#pathOf(key);
    await this.#assertInside(dirname(path), key);
    try {
      await Deno.mkdir(dirname(path), { recursive: true });
    } catch (err) {
      throw fsError(err, key);
    }
    await this.#assertInside(dirname(path), key);
    return path;
  }

  /** Streams bytes into a fresh temp file; returns its path and size. Removes it on failure. */
  async #writeTemp(
    stream: ReadableStream<Uint8Array>,
    expected: number | undefined,
    signal?: AbortSignal,
  ): Promise<{ tmp: string; size: number }> {
    const tmp = join(await this.#root(), TMP_DIR, `${ulid()}.tmp`);
    const file = await Deno.open(tmp, { write: true, createNew: true }).catch(async (err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      await Deno.mkdir(dirname(tmp), { recursive: true }); // someone removed .cubby-tmp
      return await Deno.open(tmp, { write: true, createNew: true });
    });
    const reader = stream.getReader();
    const onAbort = () => reader.cancel(signal?.reason).catch(() => {});
    signal?.addEventListener("abort", onAbort, { once: true });
    let size = 0;
    try {
      signal?.throwIfAborted();
      for (;;) {
        const { done, value } = await reader.read();
        signal?.throwIfAborted();
        if (done) break;
        size += value.length;
        if (expected !== undefined && size > expected) throw sizeMismatch(expected, size);
        for (let off = 0; off < value.length;) off += await file.write(value.subarray(off));
      }
      if (expected !== undefined && size !== expected) throw sizeMismatch(expected, size);
      if (this.#opts.fsync) await file.syncData();
      file.close();
      return { tmp, size };
    } catch (err) {
      file.close();
      await reader.cancel(err).catch(() => {});
      await Deno.remove(tmp).catch(() => {});
      throw err;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Renames a finished temp file over the target; removes the temp file on failure. */
  async #commit(tmp: string, path: string, key: string): Promise<{ etag: string; size: number }> {
    try {
      await Deno.rename(tmp, path);
    } catch (err) {
      await Deno.remove(tmp).catch(() => {});
      throw fsError(err, key);
    }
    const info = await Deno.stat(path);
    return { etag: etagOf(info), size: info.size };
  }

  /** Removes empty folders from `dir` up to (not including) the root. */
  async #prune(dir: string): Promise<void> {
    const root = await this.#root();
    for (let d = dir; d !== root && this.#isInside(root, d); d = dirname(d)) {
      try {
        await Deno.remove(d);
      } catch {
        return; // not empty, or gone
      }
    }
  }

  async put(key: string, body: PutBody, opts: PutOptions = {}) {
    const path = await this.#writable(key);
    const { stream, size } = toByteStream(body, opts.size);
    const { tmp } = await this.#writeTemp(stream, size, opts.signal);
    return await this.#commit(tmp, path, key);
  }

  async get(
    key: string,
    opts: { range?: { start: number; end?: number }; signal?: AbortSignal } = {},
  ): Promise<GetResult> {
    const found = await this.#existing(key);
    if (!found) throw notFound(key);
    const file = await Deno.open(found.path, { read: true });
    try {
      const info = await file.stat(); // the file we opened, even if the path is replaced now
      const total = info.size;
      const range = opts.range ? { ...resolveRange(opts.range, total), total } : undefined;
      if (range) await file.seek(range.start, Deno.SeekMode.Start);
      const size = range ? range.end - range.start + 1 : total;
      return {
        body: fileStream(file, size, opts.signal),
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
    const found = await this.#existing(key);
    return found ? { ...infoOf(key, found.info), contentType: contentTypeFor(key) } : null;
  }

  async delete(key: string): Promise<void> {
    const path = await this.#pathOf(key);
    await this.#assertInside(dirname(path), key);
    try {
      const info = await Deno.lstat(path);
      if (info.isDirectory) return; // a folder is not an object
      await Deno.remove(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return;
      throw err;
    }
    await this.#prune(dirname(path));
  }

  async deletePrefix(prefix: string): Promise<void> {
    validatePrefix(prefix);
    if (prefix === "") throw new AppError("storage_path_invalid", 400, { key: prefix });
    const slash = prefix.lastIndexOf("/");
    const leaf = prefix.slice(slash + 1);
    const dir = slash < 0 ? await this.#root() : await this.#pathOf(prefix.slice(0, slash));
    if (slash >= 0) await this.#assertInside(dir, prefix);
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
    if (slash >= 0) await this.#prune(leaf === "" ? dirname(dir) : dir);
  }

  async copy(from: string, to: string): Promise<void> {
    const found = await this.#existing(from);
    if (!found) throw notFound(from);
    if (from === to) return;
    const path = await this.#writable(to);
    const tmp = join(await this.#root(), TMP_DIR, `${ulid()}.tmp`);
    try {
      await Deno.copyFile(found.path, tmp);
    } catch (err) {
      await Deno.remove(tmp).catch(() => {});
      throw fsError(err, from);
    }
    await this.#commit(tmp, path, to);
  }

  async move(from: string, to: string): Promise<void> {
    const source = await this.#pathOf(from);
    if (!(await this.#existing(from))) throw notFound(from);
    if (from === to) return;
    const path = await this.#writable(to);
    try {
      await Deno.rename(source, path);
    } catch (err) {
      throw fsError(err, to);
    }
    await this.#prune(dirname(source));
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    validatePrefix(prefix);
    const limit = clampLimit(opts.limit);
    const after = opts.cursor ? decodeCursor(opts.cursor) : null;
    if (after !== null && typeof after !== "string") {
      throw new AppError("validation_failed", 400, { field: "cursor" });
    }
    const root = await this.#root();
    const slash = prefix.lastIndexOf("/");
    const dirKey = slash < 0 ? "" : prefix.slice(0, slash + 1);
    const dir = dirKey ? await this.#pathOf(dirKey.slice(0, -1)) : root;
    if (dirKey) await this.#assertInside(dir, prefix);
    const walker = walkSorted(root, dir, dirKey, prefix.slice(slash + 1), after, !opts.delimiter);
    const items: ObjectInfo[] = [];
    const prefixes: string[] = [];
    let last: string | null = null;
    let more = false;
    for await (const entry of walker) {
      if (items.length + prefixes.length === limit) {
        more = true;
        break;
      }
      if (entry.kind === "prefix") prefixes.push(entry.key);
      else items.push(infoOf(entry.key, entry.info));
      last = entry.key;
    }
    await walker.return(undefined);
    return { items, prefixes, cursor: more && last !== null ? encodeCursor(last) : null };
  }

  #signedUrl(op: SignedOp, key: string, expiresIn: number, params: Record<string, string>) {
    validateKey(key);
    const query = signStorageQuery(this.#opts.signingSecret, { op, key, expiresIn, params });
    return `${this.#opts.urlPrefix}/${encodeKeyPath(key)}?${query}`;
  }

  // deno-lint-ignore require-await
  async presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    const params: Record<string, string> = {};
    if (opts.filename) params.filename = opts.filename;
    if (opts.contentType) params.ct = opts.contentType;
    if (opts.download) params.dl = "1";
    return this.#signedUrl("get", key, opts.expiresIn, params);
  }

  // deno-lint-ignore require-await
  async presignPut(key: string, opts: { expiresIn: number; contentType?: string }) {
    const params: Record<string, string> = opts.contentType ? { ct: opts.contentType } : {};
    return this.#signedUrl("put", key, opts.expiresIn, params);
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
    return this.#signedUrl("part", key, opts.expiresIn, params);
  }

  /**
   * Checks a presigned Cubby URL for a request method and returns what it allows.
   * Throws 403 `storage_signature_invalid` / `storage_signature_expired`, or 400 for a bad key.
   */
  verifySignedRequest(url: URL | string, method: string, now?: number): SignedRequest {
    const u = typeof url === "string" ? new URL(url, "http://cubby.invalid") : url;
    const base = new URL(this.#opts.urlPrefix, "http://cubby.invalid").pathname.replace(/\/$/, "");
    const invalid = () => new AppError("storage_signature_invalid", 403);
    if (!u.pathname.startsWith(base + "/")) throw invalid();
    let key: string;
    try {
      key = u.pathname.slice(base.length + 1).split("/").map(decodeURIComponent).join("/");
    } catch {
      throw invalid();
    }
    validateKey(key);
    const op = u.searchParams.get("op") as SignedOp;
    const m = method.toUpperCase();
    const allowed = op === "get" ? m === "GET" || m === "HEAD" : op === "put" || op === "part";
    if (!allowed || (op !== "get" && m !== "PUT")) throw invalid();
    const result = verifyStorageQuery(this.#opts.signingSecret, {
      op,
      key,
      query: u.searchParams,
      now,
    });
    if (!result.ok) {
      throw result.reason === "expired"
        ? new AppError("storage_signature_expired", 403)
        : invalid();
    }
    const p = result.params;
    return {
      op,
      key,
      filename: p.filename,
      contentType: p.ct,
      download: p.dl === "1",
      uploadId: p.uploadId,
      partNumber: p.partNumber ? Number(p.partNumber) : undefined,
    };
  }

  // --- multipart ---

  async #staging(key: string, uploadId: string): Promise<{ dir: string; contentType?: string }> {
    await this.#pathOf(key);
    if (typeof uploadId !== "string" || !UPLOAD_ID.test(uploadId)) throw noUpload(uploadId);
    const dir = join(await this.#root(), STAGING_DIR, uploadId);
    try {
      const meta = JSON.parse(await Deno.readTextFile(join(dir, "upload.json")));
      if (meta.key !== key) throw noUpload(uploadId);
      return { dir, contentType: meta.contentType };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof Deno.errors.NotFound) throw noUpload(uploadId);
      throw err;
    }
  }

  async createMultipart(key: string, opts: { contentType?: string } = {}): Promise<string> {
    await this.#pathOf(key);
    const uploadId = ulid();
    const dir = join(await this.#root(), STAGING_DIR, uploadId);
    await Deno.mkdir(dir, { recursive: true });
    const meta = { key, contentType: opts.contentType, initiated: new Date().toISOString() };
    await Deno.writeTextFile(join(dir, "upload.json"), JSON.stringify(meta));
    return uploadId;
  }

  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: PutBody,
    size?: number,
  ) {
    validatePartNumber(partNumber);
    const { dir } = await this.#staging(key, uploadId);
    const { stream, size: known } = toByteStream(body, size);
    const { tmp } = await this.#writeTemp(stream, known);
    const path = join(dir, `part-${String(partNumber).padStart(5, "0")}`);
    try {
      await Deno.rename(tmp, path);
    } catch (err) {
      await Deno.remove(tmp).catch(() => {});
      if (err instanceof Deno.errors.NotFound) throw noUpload(uploadId); // aborted meanwhile
      throw err;
    }
    return { etag: etagOf(await Deno.stat(path)) };
  }

  async listParts(key: string, uploadId: string): Promise<PartInfo[]> {
    const { dir } = await this.#staging(key, uploadId);
    const parts: PartInfo[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const m = PART_FILE.exec(entry.name);
      if (!m || !entry.isFile) continue;
      const info = await Deno.stat(join(dir, entry.name));
      parts.push({ partNumber: Number(m[1]), etag: etagOf(info), size: info.size });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: CompletedPart[]) {
    const { dir } = await this.#staging(key, uploadId);
    const invalid = (reason: string) =>
      new AppError("storage_multipart_invalid", 400, { uploadId, reason });
    if (!Array.isArray(parts) || parts.length === 0) throw invalid("no parts");
    const uploaded = new Map((await this.listParts(key, uploadId)).map((p) => [p.partNumber, p]));
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
    const files = parts.map((p) => join(dir, `part-${String(p.partNumber).padStart(5, "0")}`));
    const path = await this.#writable(key);
    const { tmp } = await this.#writeTemp(concatFiles(files), undefined);
    const result = await this.#commit(tmp, path, key);
    await Deno.remove(dir, { recursive: true }).catch(ignoreMissing);
    return result;
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    let dir: string;
    try {
      ({ dir } = await this.#staging(key, uploadId));
    } catch (err) {
      if (err instanceof AppError && err.code === "storage_upload_not_found") return;
      throw err;
    }
    await Deno.remove(dir, { recursive: true }).catch(ignoreMissing);
  }

  async listMultipartUploads(prefix = ""): Promise<MultipartUploadInfo[]> {
    validatePrefix(prefix);
    const out: MultipartUploadInfo[] = [];
    const staging = join(await this.#root(), STAGING_DIR);
    try {
      for await (const entry of Deno.readDir(staging)) {
        if (!UPLOAD_ID.test(entry.name)) continue;
        try {
          const meta = JSON.parse(
            await Deno.readTextFile(join(staging, entry.name, "upload.json")),
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

  stat() {
    return { presign: true, multipart: true, kind: "local" as const };
  }

  close(): void {}
}

type WalkEntry = { kind: "file"; key: string; info: Deno.FileInfo } | {
  kind: "prefix";
  key: string;
};

/**
 * Yields the objects (and, when not recursive, the sub-prefixes) under `dir` in S3 key order,
 * skipping everything up to and including the key `after`. A folder sorts as `name/`, so the
 * order equals the order of the full keys; whole subtrees before `after` are never read.
 */
async function* walkSorted(
  root: string,
  dir: string,
  dirKey: string,
  leaf: string,
  after: string | null,
  recursive: boolean,
): AsyncGenerator<WalkEntry> {
  const entries: { key: string; sortKey: string; isDir: boolean; path: string }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.startsWith(leaf)) continue;
      if (dirKey === "" && e.name.startsWith(RESERVED_PREFIX)) continue;
      const path = join(dir, e.name);
      if (e.isSymlink && !(await isFileInside(root, path))) continue; // no linked folders
      if (!e.isSymlink && !e.isFile && !e.isDirectory) continue;
      const key = dirKey + e.name;
      entries.push({ key, sortKey: e.isDirectory ? key + "/" : key, isDir: e.isDirectory, path });
    }
  } catch (err) {
    ignoreMissing(err);
    return;
  }
  entries.sort((a, b) => a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);
  for (const e of entries) {
    if (after !== null && e.sortKey <= after && !after.startsWith(e.sortKey)) continue;
    if (e.isDir) {
      if (!recursive) {
        if (after === null || e.sortKey > after) yield { kind: "prefix", key: e.sortKey };
        continue;
      }
      yield* walkSorted(root, e.path, e.sortKey, "", after, true);
      continue;
    }
    if (after !== null && e.key <= after) continue;
    try {
      const info = await Deno.stat(e.path);
      if (info.isFile) yield { kind: "file", key: e.key, info };
    } catch (err) {
      ignoreMissing(err); // deleted while listing
    }
  }
}

async function isFileInside(root: string, path: string): Promise<boolean> {
  try {
    const real = await Deno.realPath(path);
    if (real !== root && !real.startsWith(root + sep)) return false;
    return (await Deno.stat(real)).isFile;
  } catch {
    return false;
  }
}

/** A quoted ETag from inode, mtime and size (hex). */
function etagOf(info: Deno.FileInfo): string {
  const mtime = info.mtime?.getTime() ?? 0;
  return `"${(info.ino ?? 0).toString(16)}-${mtime.toString(16)}-${info.size.toString(16)}"`;
}

function infoOf(key: string, info: Deno.FileInfo): ObjectInfo {
  return { key, size: info.size, etag: etagOf(info), lastModified: info.mtime ?? new Date(0) };
}

/** Streams `length` bytes of an open file from its current position, closing it at the end. */
function fileStream(
  file: Deno.FsFile,
  length: number,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  let remaining = length;
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      file.close();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      signal?.addEventListener("abort", () => {
        close();
        c.error(signal.reason);
      }, { once: true });
    },
    async pull(c) {
      if (remaining <= 0) {
        close();
        c.close();
        return;
      }
      const buf = new Uint8Array(Math.min(CHUNK, remaining));
      const n = await file.read(buf);
      if (n === null) {
        close();
        c.error(new Error("file ended early"));
        return;
      }
      remaining -= n;
      c.enqueue(buf.subarray(0, n));
      if (remaining <= 0) {
        close();
        c.close();
      }
    },
    cancel: close,
  }, { highWaterMark: 0 });
}

/** One stream of several files' bytes, one file open at a time. */
function concatFiles(paths: string[]): ReadableStream<Uint8Array> {
  let i = 0;
  let current: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      for (;;) {
        if (!current) {
          if (i === paths.length) return c.close();
          const file = await Deno.open(paths[i++], { read: true });
          current = fileStream(file, (await file.stat()).size).getReader();
        }
        const { done, value } = await current.read();
        if (!done) return c.enqueue(value);
        current = null;
      }
    },
    async cancel() {
      await current?.cancel();
    },
  }, { highWaterMark: 0 });
}

function notFound(key: string): AppError {
  return new AppError("storage_object_not_found", 404, { key });
}

function noUpload(uploadId: string): AppError {
  return new AppError("storage_upload_not_found", 404, { uploadId: String(uploadId) });
}

function sizeMismatch(expected: number, actual: number): AppError {
  return new AppError("storage_size_mismatch", 400, { expected, actual });
}

function ignoreMissing(err: unknown): void {
  if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return;
  throw err;
}

/** Maps a filesystem failure on a write to an AppError (conflict, full disk) or rethrows it. */
function fsError(err: unknown, key: string): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof Deno.errors.NotFound) return notFound(key);
  if (
    err instanceof Deno.errors.NotADirectory || err instanceof Deno.errors.IsADirectory ||
    err instanceof Deno.errors.AlreadyExists || (err as { code?: string })?.code === "ENOTEMPTY"
  ) {
    return new AppError("storage_conflict", 409, { key });
  }
  if ((err as { code?: string })?.code === "ENOSPC") {
    return new AppError("storage_error", 507, { key, message: "No space left on device" });
  }
  return err;
}
