/**
 * The S3 driver on `@aws-sdk/client-s3`: AWS S3, Cloudflare R2, Backblaze B2, Aliyun OSS,
 * MinIO and other S3-compatible stores, with each provider's quirks in one table.
 *
 * - Checksums are sent and validated only when an operation requires them
 *   (`WHEN_REQUIRED`): otherwise presigned PUTs carry a checksum real S3 rejects, and several
 *   providers refuse the newer checksum headers.
 * - Bodies stream. A put of known size up to `multipartThreshold` is one PutObject with
 *   ContentLength; larger or unknown sizes go through a multipart upload that holds one part
 *   in memory at a time (part sizes grow so that 10,000 parts reach terabytes).
 * - `defaultFolder` is prepended to every key and stripped from listings; folder marker
 *   objects (keys ending in `/`) are not listed as items.
 * - List cursors wrap the continuation token with the last common prefix returned, so no
 *   prefix is reported twice across pages, even by stores that repeat them (s3rver does).
 * - `customHost` (a public CDN or custom domain in front of the bucket) replaces presigned
 *   GET URLs with plain `customHost/<key>` URLs; PUT and part URLs stay presigned.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { Readable } from "node:stream";
import { AppError } from "../errors.ts";
import {
  clampLimit,
  type CompletedPart,
  contentDisposition,
  contentTypeFor,
  countBytes,
  decodeCursor,
  DEFAULT_CONTENT_TYPE,
  encodeCursor,
  encodeKeyPath,
  type GetResult,
  type ListOptions,
  type ListResult,
  MAX_PART_NUMBER,
  MIN_PART_SIZE,
  type MultipartUploadInfo,
  type ObjectInfo,
  type PartInfo,
  type PresignGetOptions,
  type PutBody,
  type PutOptions,
  quoteEtag,
  type StorageDriver,
  toByteStream,
  validateKey,
  validatePartNumber,
  validatePrefix,
  validateRange,
} from "./driver.ts";

export type S3ProviderType = "aws" | "r2" | "b2" | "aliyun_oss" | "minio" | "other";

/** What differs between S3-compatible providers. */
export type ProviderQuirks = {
  /** A region the provider requires whatever is configured (R2: `auto`). */
  region?: string;
  /** Used when no region is configured and none can be read from the endpoint. */
  defaultRegion: string;
  /** Reads the region out of the endpoint host (B2, OSS). */
  regionFromEndpoint?: RegExp;
  /** Addressing the provider requires whatever is configured. */
  forcePathStyle?: boolean;
  /** Addressing used when the config does not say. */
  defaultPathStyle: boolean;
  /** Whether DeleteObjects works without Content-MD5 (else objects are deleted one by one). */
  batchDelete: boolean;
};

export const PROVIDER_QUIRKS: Record<S3ProviderType, ProviderQuirks> = {
  aws: { defaultRegion: "us-east-1", defaultPathStyle: false, batchDelete: true },
  r2: { region: "auto", defaultRegion: "auto", defaultPathStyle: true, batchDelete: true },
  b2: {
    defaultRegion: "us-west-004",
    regionFromEndpoint: /^s3\.([a-z0-9-]+)\.backblazeb2\.com$/,
    defaultPathStyle: true,
    batchDelete: false,
  },
  aliyun_oss: {
    defaultRegion: "oss-cn-hangzhou",
    regionFromEndpoint: /^(?:s3\.)?(oss-[a-z0-9-]+?)(?:-internal)?\.aliyuncs\.com$/,
    forcePathStyle: false, // OSS only serves virtual-hosted-style requests
    defaultPathStyle: false,
    batchDelete: false,
  },
  minio: {
    defaultRegion: "us-east-1",
    forcePathStyle: true,
    defaultPathStyle: true,
    batchDelete: true,
  },
  other: { defaultRegion: "us-east-1", defaultPathStyle: true, batchDelete: true },
};

export type S3DriverOptions = {
  /** Omit for AWS's own endpoints. */
  endpoint?: string;
  region?: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle?: boolean;
  providerType?: S3ProviderType;
  /** A folder inside the bucket that holds every key of this driver. */
  defaultFolder?: string;
  /** Public base URL (CDN or custom domain) for GET links instead of presigned ones. */
  customHost?: string;
  /** Connect timeout and socket idle timeout, ms (defaults 10 s and 30 s, spec §9). */
  timeouts?: { connectMs?: number; idleMs?: number };
  /** Attempts per request including retries (default 3). */
  maxAttempts?: number;
  /** Largest known-size put sent as one PutObject (default 64 MiB). */
  multipartThreshold?: number;
  /** Part size of streamed multipart puts (default 8 MiB, at least 5 MiB). */
  partSize?: number;
};

/** The client settings a config resolves to (exported for tests). */
export function resolveS3ClientConfig(opts: S3DriverOptions) {
  const quirks = PROVIDER_QUIRKS[opts.providerType ?? "other"] ?? PROVIDER_QUIRKS.other;
  let host = "";
  try {
    host = opts.endpoint ? new URL(opts.endpoint).hostname : "";
  } catch {
    throw new AppError("storage_error", 502, { message: `Invalid endpoint: ${opts.endpoint}` });
  }
  const fromEndpoint = quirks.regionFromEndpoint?.exec(host)?.[1];
  const region = quirks.region ?? (opts.region || fromEndpoint || quirks.defaultRegion);
  const forcePathStyle = quirks.forcePathStyle ?? opts.pathStyle ?? quirks.defaultPathStyle;
  return {
    region,
    forcePathStyle,
    endpoint: opts.endpoint || undefined,
    batchDelete: quirks.batchDelete,
    maxAttempts: opts.maxAttempts ?? 3,
    connectionTimeout: opts.timeouts?.connectMs ?? 10_000,
    socketTimeout: opts.timeouts?.idleMs ?? 30_000,
  };
}

const MAX_SINGLE_COPY = 5 * 1024 ** 3;
const COPY_PART_SIZE = 512 * 1024 ** 2;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export class S3Driver implements StorageDriver {
  readonly client: S3Client;
  readonly #bucket: string;
  readonly #folder: string;
  readonly #customHost: string | null;
  readonly #batchDelete: boolean;
  readonly #threshold: number;
  readonly #partSize: number;

  constructor(opts: S3DriverOptions) {
    const cfg = resolveS3ClientConfig(opts);
    const clientConfig = {
      endpoint: cfg.endpoint,
      region: cfg.region,
      forcePathStyle: cfg.forcePathStyle,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED" as const,
      responseChecksumValidation: "WHEN_REQUIRED" as const,
      requestHandler: {
        connectionTimeout: cfg.connectionTimeout,
        socketTimeout: cfg.socketTimeout,
      },
    };
    // The SDK never retries a request whose body is a stream (it cannot be replayed).
    this.client = new S3Client({ ...clientConfig, maxAttempts: cfg.maxAttempts });
    this.#bucket = opts.bucket;
    const folder = (opts.defaultFolder ?? "").replace(/^\/+|\/+$/g, "");
    this.#folder = folder ? validateKey(folder) + "/" : "";
    this.#customHost = opts.customHost ? opts.customHost.replace(/\/+$/, "") : null;
    this.#batchDelete = cfg.batchDelete;
    this.#threshold = opts.multipartThreshold ?? 64 * 1024 ** 2;
    this.#partSize = Math.max(MIN_PART_SIZE, opts.partSize ?? 8 * 1024 ** 2);
  }

  #full(key: string): string {
    return this.#folder + validateKey(key);
  }

  #strip(fullKey: string): string {
    return fullKey.slice(this.#folder.length);
  }

  async put(key: string, body: PutBody, opts: PutOptions = {}) {
    const Key = this.#full(key);
    const ContentType = opts.contentType ?? contentTypeFor(key);
    if (typeof body === "string" || body instanceof Uint8Array) {
      const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
      toByteStream(bytes, opts.size); // checks a declared size
      const res = await this.#try(
        this.client.send(
          new PutObjectCommand({
            Bucket: this.#bucket,
            Key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType,
          }),
          { abortSignal: opts.signal },
        ),
        key,
        opts.signal,
      );
      return { etag: quoteEtag(res.ETag ?? ""), size: bytes.length };
    }
    if (opts.size !== undefined && opts.size <= this.#threshold) {
      const etag = await this.#streamPut(
        body,
        opts.size,
        (Body, signal) =>
          this.#try(
            this.client.send(
              new PutObjectCommand({
                Bucket: this.#bucket,
                Key,
                Body,
                ContentLength: opts.size,
                ContentType,
              }),
              { abortSignal: signal },
            ),
            key,
            signal,
          ),
        opts.signal,
      );
      return { etag, size: opts.size };
    }
    return await this.#multipartPut(key, body, opts.size, ContentType, opts.signal);
  }

  /**
   * Sends a stream as a request body. The SDK pipes a Node stream into the socket and does not
   * see its errors, so a failing or mis-sized source aborts the request itself.
   */
  async #streamPut(
    stream: ReadableStream<Uint8Array>,
    size: number,
    send: (body: Readable, signal: AbortSignal) => Promise<{ ETag?: string }>,
    signal?: AbortSignal,
  ): Promise<string> {
    const ac = new AbortController();
    const onAbort = () => ac.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const counted = countBytes(stream, size).stream;
    // deno-lint-ignore no-explicit-any
    const body = Readable.fromWeb(counted as any);
    body.on("error", (err) => ac.abort(err));
    try {
      const res = await send(body, ac.signal);
      return quoteEtag(res.ETag ?? "");
    } catch (err) {
      if (ac.signal.aborted && ac.signal.reason instanceof AppError) throw ac.signal.reason;
      throw err;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      body.destroy();
    }
  }

  /** The size of part `n` of a streamed upload: doubles every 1,000 parts when size is unknown. */
  #partSizeFor(n: number, expected?: number): number {
    if (expected !== undefined) {
      return Math.max(this.#partSize, Math.ceil(expected / MAX_PART_NUMBER));
    }
    return this.#partSize * 2 ** Math.floor((n - 1) / 1000);
  }

  async #multipartPut(
    key: string,
    stream: ReadableStream<Uint8Array>,
    expected: number | undefined,
    ContentType: string,
    signal?: AbortSignal,
  ): Promise<{ etag: string; size: number }> {
    const reader = stream.getReader();
    const pending: { chunk: Uint8Array | null } = { chunk: null };
    let total = 0;
    const nextPart = async (n: number) => {
      const part = await readFull(reader, this.#partSizeFor(n, expected), pending, signal);
      total += part.length;
      if (expected !== undefined && total > expected) throw sizeMismatch(expected, total);
      return part;
    };
    let uploadId: string | null = null;
    try {
      let part = await nextPart(1);
      if (part.length < this.#partSizeFor(1, expected)) { // the whole body fits in one request
        if (expected !== undefined && total !== expected) throw sizeMismatch(expected, total);
        return await this.put(key, part, { contentType: ContentType, signal });
      }
      uploadId = await this.createMultipart(key, { contentType: ContentType });
      const parts: CompletedPart[] = [];
      for (let n = 1; part.length > 0; n++) {
        if (n > MAX_PART_NUMBER) {
          throw new AppError("storage_error", 502, { message: "Too many parts" });
        }
        const { etag } = await this.#uploadBytes(key, uploadId, n, part, signal);
        parts.push({ partNumber: n, etag });
        part = await nextPart(n + 1);
      }
      if (expected !== undefined && total !== expected) throw sizeMismatch(expected, total);
      const done = await this.completeMultipart(key, uploadId, parts);
      uploadId = null;
      return done;
    } catch (err) {
      await reader.cancel(err).catch(() => {});
      if (uploadId) await this.abortMultipart(key, uploadId).catch(() => {});
      throw err;
    }
  }

  async #uploadBytes(
    key: string,
    UploadId: string,
    PartNumber: number,
    Body: Uint8Array,
    signal?: AbortSignal,
  ) {
    const res = await this.#try(
      this.client.send(
        new UploadPartCommand({
          Bucket: this.#bucket,
          Key: this.#full(key),
          UploadId,
          PartNumber,
          Body,
          ContentLength: Body.length,
        }),
        { abortSignal: signal },
      ),
      key,
      signal,
    );
    return { etag: quoteEtag(res.ETag ?? "") };
  }

  async get(
    key: string,
    opts: { range?: { start: number; end?: number }; signal?: AbortSignal } = {},
  ): Promise<GetResult> {
    const Key = this.#full(key);
    const r = opts.range ? validateRange(opts.range) : undefined;
    const res = await this.#try(
      this.client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key,
          Range: r ? `bytes=${r.start}-${r.end ?? ""}` : undefined,
        }),
        { abortSignal: opts.signal },
      ),
      key,
      opts.signal,
    );
    if (!res.Body) throw new AppError("storage_error", 502, { key, message: "Empty response" });
    const source = res.Body as unknown as { destroy?: (err?: unknown) => void };
    opts.signal?.addEventListener("abort", () => source.destroy?.(opts.signal?.reason), {
      once: true,
    });
    const size = res.ContentLength ?? 0;
    let range: GetResult["range"];
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? "");
    if (r && m) range = { start: Number(m[1]), end: Number(m[2]), total: Number(m[3]) };
    else if (r) range = { start: 0, end: Math.max(0, size - 1), total: size }; // whole object
    return {
      body: res.Body.transformToWebStream() as ReadableStream<Uint8Array>,
      size,
      contentType: res.ContentType || contentTypeFor(key) || DEFAULT_CONTENT_TYPE,
      etag: quoteEtag(res.ETag ?? ""),
      lastModified: res.LastModified ?? new Date(0),
      range,
    };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const res = await this.#try(
        this.client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#full(key) })),
        key,
      );
      return {
        key,
        size: res.ContentLength ?? 0,
        etag: quoteEtag(res.ETag ?? ""),
        lastModified: res.LastModified ?? new Date(0),
        contentType: res.ContentType || contentTypeFor(key),
      };
    } catch (err) {
      if (err instanceof AppError && err.code === "storage_object_not_found") return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#try(
      this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#full(key) })),
      key,
    );
  }

  async deletePrefix(prefix: string): Promise<void> {
    validatePrefix(prefix);
    if (prefix === "") throw new AppError("storage_path_invalid", 400, { key: prefix });
    let token: string | undefined;
    do {
      const page = await this.#try(
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.#bucket,
            Prefix: this.#folder + prefix,
            ContinuationToken: token,
          }),
        ),
        prefix,
      );
      const keys = (page.Contents ?? []).map((o) => o.Key!).filter(Boolean);
      if (keys.length) await this.#deleteMany(keys);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Deletes full keys (≤ 1000) in one request, or one by one where batches do not work. */
  async #deleteMany(keys: string[]): Promise<void> {
    if (this.#batchDelete) {
      try {
        const res = await this.#try(
          this.client.send(
            new DeleteObjectsCommand({
              Bucket: this.#bucket,
              Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
            }),
          ),
          keys[0],
        );
        const failed = res.Errors ?? [];
        if (failed.length === 0) return;
        keys = failed.map((e) => e.Key!).filter(Boolean);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 502) throw err;
        // e.g. a store that wants Content-MD5: fall through to single deletes
      }
    }
    for (let i = 0; i < keys.length; i += 8) {
      await Promise.all(
        keys.slice(i, i + 8).map((Key) =>
          this.#try(this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key })), Key)
        ),
      );
    }
  }

  async copy(from: string, to: string): Promise<void> {
    const source = await this.head(from);
    if (!source) throw notFound(from);
    if (from === to) return;
    const CopySource = encodeKeyPath(`${this.#bucket}/${this.#full(from)}`);
    if (source.size <= MAX_SINGLE_COPY) {
      await this.#try(
        this.client.send(
          new CopyObjectCommand({ Bucket: this.#bucket, Key: this.#full(to), CopySource }),
        ),
        from,
      );
      return;
    }
    // CopyObject stops at 5 GiB; larger objects are copied part by part on the server.
    const uploadId = await this.createMultipart(to, { contentType: source.contentType });
    try {
      const parts: CompletedPart[] = [];
      for (let start = 0, n = 1; start < source.size; start += COPY_PART_SIZE, n++) {
        const end = Math.min(start + COPY_PART_SIZE, source.size) - 1;
        const res = await this.#try(
          this.client.send(
            new UploadPartCopyCommand({
              Bucket: this.#bucket,
              Key: this.#full(to),
              UploadId: uploadId,
              PartNumber: n,
              CopySource,
              CopySourceRange: `bytes=${start}-${end}`,
            }),
          ),
          from,
        );
        parts.push({ partNumber: n, etag: res.CopyPartResult?.ETag ?? "" });
      }
      await this.completeMultipart(to, uploadId, parts);
    } catch (err) {
      await this.abortMultipart(to, uploadId).catch(() => {});
      throw err;
    }
  }

  async move(from: string, to: string): Promise<void> {
    await this.copy(from, to);
    if (from !== to) await this.delete(from);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    validatePrefix(prefix);
    const cursor = opts.cursor ? decodeS3Cursor(opts.cursor) : null;
    const res = await this.#try(
      this.client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          Prefix: this.#folder + prefix || undefined,
          Delimiter: opts.delimiter,
          MaxKeys: clampLimit(opts.limit),
          ContinuationToken: cursor?.t,
        }),
      ),
      prefix,
    );
    const items: ObjectInfo[] = [];
    for (const o of res.Contents ?? []) {
      if (!o.Key || o.Key.endsWith("/")) continue; // folder markers are not objects
      items.push({
        key: this.#strip(o.Key),
        size: o.Size ?? 0,
        etag: quoteEtag(o.ETag ?? ""),
        lastModified: o.LastModified ?? new Date(0),
      });
    }
    const seen = cursor?.p ?? "";
    const prefixes = (res.CommonPrefixes ?? [])
      .map((p) => this.#strip(p.Prefix ?? ""))
      .filter((p) => p !== "" && p > seen);
    const next = res.IsTruncated ? res.NextContinuationToken : undefined;
    const lastPrefix = prefixes.reduce((a, b) => (b > a ? b : a), seen);
    return { items, prefixes, cursor: next ? encodeCursor({ t: next, p: lastPrefix }) : null };
  }

  async presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    const Key = this.#full(key);
    if (this.#customHost) return `${this.#customHost}/${encodeKeyPath(Key)}`;
    const cmd = new GetObjectCommand({
      Bucket: this.#bucket,
      Key,
      ResponseContentDisposition: opts.filename
        ? contentDisposition(opts.filename, opts.download ?? false)
        : opts.download
        ? "attachment"
        : undefined,
      ResponseContentType: opts.contentType,
    });
    return await getSignedUrl(this.client, cmd, { expiresIn: presignSeconds(opts.expiresIn) });
  }

  async presignPut(key: string, opts: { expiresIn: number; contentType?: string }) {
    const cmd = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: this.#full(key),
      ContentType: opts.contentType,
    });
    return await getSignedUrl(this.client, cmd, { expiresIn: presignSeconds(opts.expiresIn) });
  }

  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { expiresIn: number },
  ) {
    const cmd = new UploadPartCommand({
      Bucket: this.#bucket,
      Key: this.#full(key),
      UploadId: uploadId,
      PartNumber: validatePartNumber(partNumber),
    });
    return await getSignedUrl(this.client, cmd, { expiresIn: presignSeconds(opts.expiresIn) });
  }

  async createMultipart(key: string, opts: { contentType?: string } = {}): Promise<string> {
    const res = await this.#try(
      this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: this.#full(key),
          ContentType: opts.contentType ?? contentTypeFor(key),
        }),
      ),
      key,
    );
    if (!res.UploadId) throw new AppError("storage_error", 502, { key, message: "No UploadId" });
    return res.UploadId;
  }

  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: PutBody,
    size?: number,
  ) {
    validatePartNumber(partNumber);
    if (typeof body === "string" || body instanceof Uint8Array) {
      const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
      toByteStream(bytes, size);
      return await this.#uploadBytes(key, uploadId, partNumber, bytes);
    }
    if (size === undefined) {
      throw new AppError("validation_failed", 400, {
        field: "size",
        reason: "S3 parts need a size",
      });
    }
    const etag = await this.#streamPut(
      body,
      size,
      (Body, signal) =>
        this.#try(
          this.client.send(
            new UploadPartCommand({
              Bucket: this.#bucket,
              Key: this.#full(key),
              UploadId: uploadId,
              PartNumber: partNumber,
              Body,
              ContentLength: size,
            }),
            { abortSignal: signal },
          ),
          key,
          signal,
        ),
    );
    return { etag };
  }

  async listParts(key: string, uploadId: string): Promise<PartInfo[]> {
    const parts: PartInfo[] = [];
    let marker: string | undefined;
    do {
      const res = await this.#try(
        this.client.send(
          new ListPartsCommand({
            Bucket: this.#bucket,
            Key: this.#full(key),
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        ),
        key,
      );
      for (const p of res.Parts ?? []) {
        parts.push({
          partNumber: p.PartNumber ?? 0,
          etag: quoteEtag(p.ETag ?? ""),
          size: p.Size ?? 0,
        });
      }
      marker = res.IsTruncated ? res.NextPartNumberMarker : undefined;
    } while (marker);
    return parts;
  }

  async completeMultipart(key: string, uploadId: string, parts: CompletedPart[]) {
    if (!Array.isArray(parts) || parts.length === 0) {
      throw new AppError("storage_multipart_invalid", 400, { uploadId, reason: "no parts" });
    }
    parts.forEach((p) => validatePartNumber(p.partNumber));
    const res = await this.#try(
      this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: this.#full(key),
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: quoteEtag(p.etag) })),
          },
        }),
      ),
      key,
    );
    const info = await this.head(key);
    return { etag: quoteEtag(res.ETag ?? info?.etag ?? ""), size: info?.size ?? 0 };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.#try(
        this.client.send(
          new AbortMultipartUploadCommand({
            Bucket: this.#bucket,
            Key: this.#full(key),
            UploadId: uploadId,
          }),
        ),
        key,
      );
    } catch (err) {
      if (err instanceof AppError && err.code === "storage_upload_not_found") return;
      throw err;
    }
  }

  async listMultipartUploads(prefix = ""): Promise<MultipartUploadInfo[]> {
    validatePrefix(prefix);
    const out: MultipartUploadInfo[] = [];
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      const res = await this.#try(
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.#bucket,
            Prefix: this.#folder + prefix || undefined,
            KeyMarker,
            UploadIdMarker,
          }),
        ),
        prefix,
      );
      for (const u of res.Uploads ?? []) {
        if (!u.Key || !u.UploadId) continue;
        out.push({
          key: this.#strip(u.Key),
          uploadId: u.UploadId,
          initiated: u.Initiated ?? new Date(0),
        });
      }
      if (!res.IsTruncated) return out;
      KeyMarker = res.NextKeyMarker;
      UploadIdMarker = res.NextUploadIdMarker;
    }
  }

  stat() {
    return { presign: true, multipart: true, kind: "s3" as const };
  }

  close(): void {
    this.client.destroy();
  }

  /** Awaits an SDK call and maps its failure to an AppError. */
  async #try<T>(call: Promise<T>, key: string, signal?: AbortSignal): Promise<T> {
    try {
      return await call;
    } catch (err) {
      throw mapS3Error(err, key, signal);
    }
  }
}

/** Turns an SDK failure into an AppError: 404, 403, 400 for bad parts or ranges, else 502. */
export function mapS3Error(err: unknown, key: string, signal?: AbortSignal): unknown {
  if (err instanceof AppError) return err;
  if (signal?.aborted) return signal.reason ?? err;
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = e?.name ?? "Error";
  const status = e?.$metadata?.httpStatusCode;
  const details = { key, provider_code: name, message: e?.message ?? String(err), status };
  if (name === "NoSuchUpload") return new AppError("storage_upload_not_found", 404, details);
  if (name === "NoSuchKey" || name === "NotFound" || (status === 404 && name !== "NoSuchBucket")) {
    return new AppError("storage_object_not_found", 404, details);
  }
  if (name === "AccessDenied" || name === "Forbidden" || status === 403) {
    return new AppError("storage_access_denied", 403, details);
  }
  if (name === "InvalidRange" || status === 416) {
    return new AppError("storage_range_invalid", 400, details);
  }
  if (["InvalidPart", "InvalidPartOrder", "EntityTooSmall"].includes(name)) {
    return new AppError("storage_multipart_invalid", 400, details);
  }
  return new AppError("storage_error", 502, details);
}

/**
 * Reads exactly `size` bytes (fewer only at the end of the stream) into one buffer; a chunk
 * that straddles the boundary keeps its tail in `pending` for the next call.
 */
async function readFull(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  size: number,
  pending: { chunk: Uint8Array | null },
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const buf = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    signal?.throwIfAborted();
    let chunk = pending.chunk;
    pending.chunk = null;
    if (!chunk) {
      const { done, value } = await reader.read();
      if (done) break;
      chunk = value;
    }
    const take = Math.min(chunk.length, size - filled);
    buf.set(chunk.subarray(0, take), filled);
    filled += take;
    if (take < chunk.length) pending.chunk = chunk.subarray(take);
  }
  return filled === size ? buf : buf.subarray(0, filled);
}

function presignSeconds(expiresIn: number): number {
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new AppError("validation_failed", 400, { field: "expiresIn" });
  }
  return Math.min(Math.ceil(expiresIn), MAX_PRESIGN_SECONDS);
}

function notFound(key: string): AppError {
  return new AppError("storage_object_not_found", 404, { key });
}

function sizeMismatch(expected: number, actual: number): AppError {
  return new AppError("storage_size_mismatch", 400, { expected, actual });
}

function decodeS3Cursor(cursor: string): { t: string; p: string } {
  const c = decodeCursor(cursor) as { t?: unknown; p?: unknown } | null;
  if (typeof c?.t === "string" && typeof c?.p === "string") return { t: c.t, p: c.p };
  throw new AppError("validation_failed", 400, { field: "cursor" });
}
