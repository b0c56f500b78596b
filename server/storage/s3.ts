/**
 * The S3 driver on `@aws-sdk/client-s3`: AWS S3, Cloudflare R2, Backblaze B2, Aliyun OSS,
 * MinIO and other S3-compatible stores, with each provider's quirks in one table
 * (`s3_quirks.ts`).
 *
 * - Checksums are sent and validated only when an operation requires them
 *   (`WHEN_REQUIRED`): otherwise presigned PUTs carry a checksum real S3 rejects, and several
 *   providers refuse the newer checksum headers.
 * - Bodies stream (`s3_put.ts`, `s3_streams.ts`); no method holds more than one part.
 * - `defaultFolder` is prepended to every key and stripped from listings (`s3_target.ts`);
 *   listings and prefix deletes are in `s3_list.ts`, multipart uploads in `s3_multipart.ts`,
 *   server-side copies in `s3_copy.ts`.
 * - `customHost` (a public CDN or custom domain in front of the bucket) replaces presigned
 *   GET URLs with plain `customHost/<key>` URLs; PUT and part URLs stay presigned
 *   (`s3_presign.ts`).
 * - `checkCors` tells whether browsers can upload to the bucket directly (`s3_cors.ts`).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import {
  type CompletedPart,
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
  type StorageDriver,
  validateKey,
  validateRange,
} from "./driver.ts";
import { contentTypeFor, quoteEtag } from "./driver_wire.ts";
import { checkBucketCors } from "./s3_cors.ts";
import { callS3 } from "./s3_errors.ts";
import { copyObject } from "./s3_copy.ts";
import { presignGet, presignPart, presignPut } from "./s3_presign.ts";
import { ensureBucket } from "./s3_bucket.ts";
import { deletePrefix, listObjects } from "./s3_list.ts";
import {
  abortMultipart,
  completeMultipart,
  createMultipart,
  listMultipartUploads,
  listParts,
  uploadPart,
} from "./s3_multipart.ts";
import { putObject, type PutSizes } from "./s3_put.ts";
import { QUIET_S3_LOGGER, resolveS3ClientConfig, type S3DriverOptions } from "./s3_quirks.ts";
import { fullKey, headObject, type S3Target } from "./s3_target.ts";

export { mapS3Error } from "./s3_errors.ts";
export {
  PROVIDER_QUIRKS,
  type ProviderQuirks,
  resolveS3ClientConfig,
  type S3DriverOptions,
  type S3ProviderType,
} from "./s3_quirks.ts";

/** A storage driver over one S3 bucket (and optionally one folder in it). */
export class S3Driver implements StorageDriver {
  readonly client: S3Client;
  readonly #t: S3Target;
  readonly #customHost: string | null;
  readonly #batchDelete: boolean;
  readonly #sizes: PutSizes;
  /** When the bucket was last seen to exist (checkBucket asks at most once a minute). */
  readonly #bucketSeen = { at: 0 };

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
      logger: QUIET_S3_LOGGER,
    };
    // The SDK never retries a request whose body is a stream (it cannot be replayed).
    this.client = new S3Client({ ...clientConfig, maxAttempts: cfg.maxAttempts });
    const folder = (opts.defaultFolder ?? "").replace(/^\/+|\/+$/g, "");
    this.#t = {
      client: this.client,
      bucket: opts.bucket,
      folder: folder ? validateKey(folder) + "/" : "",
    };
    this.#customHost = opts.customHost ? opts.customHost.replace(/\/+$/, "") : null;
    this.#batchDelete = cfg.batchDelete;
    this.#sizes = {
      threshold: opts.multipartThreshold ?? 64 * 1024 ** 2,
      partSize: Math.max(MIN_PART_SIZE, opts.partSize ?? 8 * 1024 ** 2),
    };
  }

  #full(key: string): string {
    return fullKey(this.#t, key);
  }

  put(key: string, body: PutBody, opts: PutOptions = {}) {
    return putObject(this.#t, this.#sizes, key, body, opts);
  }

  async get(
    key: string,
    opts: { range?: { start: number; end?: number }; signal?: AbortSignal } = {},
  ): Promise<GetResult> {
    const Key = this.#full(key);
    const r = opts.range ? validateRange(opts.range) : undefined;
    const res = await callS3(
      this.client.send(
        new GetObjectCommand({
          Bucket: this.#t.bucket,
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
      contentType: res.ContentType || contentTypeFor(key),
      etag: quoteEtag(res.ETag ?? ""),
      lastModified: res.LastModified ?? new Date(0),
      range,
    };
  }

  head(key: string): Promise<ObjectInfo | null> {
    return headObject(this.#t, key);
  }

  async delete(key: string): Promise<void> {
    await callS3(
      this.client.send(new DeleteObjectCommand({ Bucket: this.#t.bucket, Key: this.#full(key) })),
      key,
    );
  }

  async createFolder(key: string): Promise<void> {
    validateKey(key);
    if (await this.head(key)) throw new AppError("storage_conflict", 409, { key });
    await callS3(
      this.client.send(
        new PutObjectCommand({ Bucket: this.#t.bucket, Key: `${this.#full(key)}/`, Body: "" }),
      ),
      key,
    );
  }

  deletePrefix(prefix: string): Promise<void> {
    return deletePrefix(this.#t, prefix, this.#batchDelete);
  }

  copy(from: string, to: string): Promise<void> {
    return copyObject(this.#t, from, to);
  }

  async move(from: string, to: string): Promise<void> {
    await this.copy(from, to);
    if (from !== to) await this.delete(from);
  }

  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return listObjects(this.#t, prefix, opts);
  }

  presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    return presignGet(this.#t, this.#customHost, key, opts);
  }

  presignPut(key: string, opts: { expiresIn: number; contentType?: string }): Promise<string> {
    return presignPut(this.#t, key, opts);
  }

  /** 502 storage_bucket_not_found when the bucket is missing (see s3_bucket.ts). */
  checkBucket(): Promise<void> {
    return ensureBucket(this.#t, this.#bucketSeen);
  }

  presignPart(key: string, uploadId: string, partNumber: number, opts: { expiresIn: number }) {
    return presignPart(this.#t, key, uploadId, partNumber, opts);
  }

  createMultipart(key: string, opts: { contentType?: string } = {}): Promise<string> {
    return createMultipart(this.#t, key, opts);
  }

  uploadPart(key: string, uploadId: string, partNumber: number, body: PutBody, size?: number) {
    return uploadPart(this.#t, key, uploadId, partNumber, body, size);
  }

  listParts(key: string, uploadId: string): Promise<PartInfo[]> {
    return listParts(this.#t, key, uploadId);
  }

  completeMultipart(key: string, uploadId: string, parts: CompletedPart[]) {
    return completeMultipart(this.#t, key, uploadId, parts);
  }

  abortMultipart(key: string, uploadId: string): Promise<void> {
    return abortMultipart(this.#t, key, uploadId);
  }

  listMultipartUploads(prefix = ""): Promise<MultipartUploadInfo[]> {
    return listMultipartUploads(this.#t, prefix);
  }

  /** Whether browsers (from `origin` when given) can upload to the bucket; see `s3_cors.ts`. */
  checkCors(origin?: string): Promise<string> {
    return checkBucketCors(this.#t, origin);
  }

  stat() {
    return { presign: true, multipart: true, kind: "s3" as const };
  }

  close(): void {
    this.client.destroy();
  }
}
