/**
 * The storage driver contract: one small interface that the local filesystem driver and the
 * S3 driver both implement, so that files, mounts and WebDAV never know where bytes live.
 *
 * Keys are slash paths relative to the driver root (`docs/a.txt`): no leading slash, no empty,
 * `.` or `..` segments, no backslashes, no NUL. Bodies are web streams end to end; no method
 * holds a whole object in memory. Every failure is an `AppError` with a `storage_*` code.
 */
import { AppError } from "../errors.ts";

/** What `head`, `list` and `get` report about one object. */
export type ObjectInfo = {
  key: string;
  size: number;
  /** Quoted, as in HTTP: `"…"`. Stable while the object is unchanged. */
  etag: string;
  lastModified: Date;
  /** Present on `head`/`get`; listings leave it out (S3 does not return it there). */
  contentType?: string;
};

export type PutBody = ReadableStream<Uint8Array> | Uint8Array | string;

export type PutOptions = { contentType?: string; size?: number; signal?: AbortSignal };

/** An inclusive byte range; `end` omitted means "to the end of the object". */
export type ByteRange = { start: number; end?: number };

export type GetResult = {
  body: ReadableStream<Uint8Array>;
  /** Bytes in `body` (the range length when a range was asked for). */
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
  range?: { start: number; end: number; total: number };
};

/**
 * `limit`: the most entries a page holds (default 1000). S3 never returns more than 1000; the
 * local driver returns up to 10,000 when asked, since each of its pages reads the folder whole.
 */
export type ListOptions = { cursor?: string | null; limit?: number; delimiter?: "/" };

export type ListResult = {
  items: ObjectInfo[];
  /** Sub-prefixes ending in `/` (only with a delimiter). */
  prefixes: string[];
  /** Pass back to get the next page; null when the listing is complete. */
  cursor: string | null;
};

export type PresignGetOptions = {
  expiresIn: number;
  /** Served as the Content-Disposition filename. */
  filename?: string;
  /** Overrides the stored Content-Type of the response. */
  contentType?: string;
  /** `attachment` when true, `inline` otherwise (only when a filename is given). */
  download?: boolean;
};

export type PartInfo = { partNumber: number; etag: string; size: number };
export type CompletedPart = { partNumber: number; etag: string };
export type MultipartUploadInfo = { key: string; uploadId: string; initiated: Date };

export type DriverCapabilities = { presign: boolean; multipart: boolean; kind: "local" | "s3" };

export interface StorageDriver {
  /**
   * Writes an object from a stream or bytes; replaces any previous object atomically. Drivers
   * that know the stored object's time say it (`lastModified`), which saves a `head`.
   */
  put(
    key: string,
    body: PutBody,
    opts?: PutOptions,
  ): Promise<{ etag: string; size: number; lastModified?: Date }>;
  /** Streams an object or one byte range of it; 404 `storage_object_not_found` when missing. */
  get(key: string, opts?: { range?: ByteRange; signal?: AbortSignal }): Promise<GetResult>;
  /** The object's metadata, or null when it does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Deletes one object; deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Creates an empty folder `key` (a directory on disk, a zero-byte `key/` marker on S3) so it
   * lists before anything is put in it; an existing folder is fine, a file there is 409.
   */
  createFolder(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (a folder is `dir/`). */
  deletePrefix(prefix: string): Promise<void>;
  /** Copies an object; 404 when the source is missing. */
  copy(from: string, to: string): Promise<void>;
  /** Moves an object (atomic rename locally, copy then delete on S3). */
  move(from: string, to: string): Promise<void>;
  /** One page of keys under a raw prefix, in key order; follow `cursor` for the rest. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /**
   * What is at `key`: an object (as `head` gives it), a folder (holding something, or made
   * with createFolder), or nothing; answered without listing, in a time that does not grow
   * with a folder's size. Drivers with no cheaper way than a listing leave it out
   * (fs/fs_entry.ts `lookup` uses head and a listing then).
   */
  lookup?(key: string): Promise<ObjectInfo | "folder" | null>;
  /** A short-lived URL that GETs the object without other credentials. */
  presignGet(key: string, opts: PresignGetOptions): Promise<string>;
  /**
   * A short-lived URL that accepts one PUT of the object's bytes. With `size`, drivers that
   * can bind it (local) accept only a body of exactly that many bytes.
   */
  presignPut(
    key: string,
    opts: { expiresIn: number; contentType?: string; size?: number },
  ): Promise<string>;
  /** Starts a multipart upload and returns its id. */
  createMultipart(key: string, opts?: { contentType?: string }): Promise<string>;
  /** Uploads one part (1..10000); re-uploading a part number replaces it. */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: PutBody,
    size?: number,
  ): Promise<{ etag: string }>;
  /** A short-lived URL that accepts one PUT of a part's bytes. */
  presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { expiresIn: number },
  ): Promise<string>;
  /** The parts uploaded so far, by part number (used to resume an upload). */
  listParts(key: string, uploadId: string): Promise<PartInfo[]>;
  /** Assembles the listed parts into the object; 400 `storage_multipart_invalid` on a bad list. */
  completeMultipart(
    key: string,
    uploadId: string,
    parts: CompletedPart[],
  ): Promise<{ etag: string; size: number }>;
  /** Discards an upload and its parts. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** Uploads started and not yet completed or aborted, optionally under a key prefix. */
  listMultipartUploads(prefix?: string): Promise<MultipartUploadInfo[]>;
  /**
   * Optional: for drivers whose presigned URLs send browsers to another origin (S3), checks
   * that the store lets browsers PUT there (from `origin` when given, e.g. the admin page's
   * Origin), send Content-Type and read ETag. Returns a one-line summary; throws an AppError
   * whose `details.message` names what is missing. Drivers serving from Cubby leave it out.
   */
  checkCors?(origin?: string): Promise<string>;
  /**
   * Optional, with `checkCors`: throws 502 `storage_bucket_not_found` when the bucket is
   * missing. Asked before a presigned PUT is handed out: a browser sees a PUT to a missing
   * bucket fail like a CORS refusal and cannot tell the two apart.
   */
  checkBucket?(): Promise<void>;
  /** What this driver can do. */
  stat(): DriverCapabilities;
  /** Releases sockets and other resources. */
  close(): void;
}

/** S3's minimum size of every part but the last (docs/PRODUCT.md §9.1 part size). */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
export const MAX_PART_NUMBER = 10_000;
export const MAX_LIST_LIMIT = 1000;
const MAX_KEY_BYTES = 1024;

const encoder = new TextEncoder();

function invalidPath(key: unknown): AppError {
  return new AppError("storage_path_invalid", 400, { key: String(key) });
}

/** Returns the key unchanged when valid; throws 400 `storage_path_invalid` otherwise. */
export function validateKey(key: string): string {
  if (typeof key !== "string" || key === "" || key.includes("\0") || key.includes("\\")) {
    throw invalidPath(key);
  }
  if (encoder.encode(key).length > MAX_KEY_BYTES) throw invalidPath(key);
  for (const segment of key.split("/")) {
    if (segment === "" || segment === "." || segment === "..") throw invalidPath(key);
  }
  return key;
}

/** Validates a list/delete prefix: "" or a key, optionally ending in `/`; throws 400. */
export function validatePrefix(prefix: string): string {
  if (prefix === "") return prefix;
  validateKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/** Validates a multipart part number (1..10000); throws 400 `storage_multipart_invalid`. */
export function validatePartNumber(partNumber: number): number {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new AppError("storage_multipart_invalid", 400, { partNumber });
  }
  return partNumber;
}

/** Validates a range against nothing but itself; throws 400 `storage_range_invalid`. */
export function validateRange(range: ByteRange): ByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw rangeError(range);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) throw rangeError(range);
  return range;
}

/** Resolves a range against an object's size; throws 400 when it starts past the end. */
export function resolveRange(range: ByteRange, total: number): { start: number; end: number } {
  validateRange(range);
  if (range.start >= total) throw rangeError(range, total);
  return { start: range.start, end: Math.min(range.end ?? total - 1, total - 1) };
}

function rangeError(range: ByteRange, total?: number): AppError {
  return new AppError("storage_range_invalid", 400, { start: range.start, end: range.end, total });
}

/** Clamps a list limit to 1..`max` (default 1000, S3's page); no limit asks for 1000. */
export function clampLimit(limit: number | undefined, max = MAX_LIST_LIMIT): number {
  if (limit === undefined || !Number.isFinite(limit)) return MAX_LIST_LIMIT;
  return Math.max(1, Math.min(max, Math.floor(limit)));
}
