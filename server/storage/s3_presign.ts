/** Presigned S3 URLs (GET, PUT and upload parts), valid for at most seven days. */
import { GetObjectCommand, PutObjectCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { AppError } from "../errors.ts";
import { type PresignGetOptions, validatePartNumber } from "./driver.ts";
import { contentDisposition, encodeKeyPath } from "./driver_wire.ts";
import { fullKey, type S3Target } from "./s3_target.ts";

const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** A GET URL: `customHost/<key>` when the bucket has a public host, else presigned. */
export async function presignGet(
  t: S3Target,
  customHost: string | null,
  key: string,
  opts: PresignGetOptions,
): Promise<string> {
  const Key = fullKey(t, key);
  if (customHost) return `${customHost}/${encodeKeyPath(Key)}`;
  const cmd = new GetObjectCommand({
    Bucket: t.bucket,
    Key,
    ResponseContentDisposition: opts.filename
      ? contentDisposition(opts.filename, opts.download ?? false)
      : opts.download
      ? "attachment"
      : undefined,
    ResponseContentType: opts.contentType,
  });
  return await getSignedUrl(t.client, cmd, { expiresIn: presignSeconds(opts.expiresIn) });
}

/** A presigned PUT URL for one object. */
export async function presignPut(
  t: S3Target,
  key: string,
  opts: { expiresIn: number; contentType?: string },
): Promise<string> {
  const cmd = new PutObjectCommand({
    Bucket: t.bucket,
    Key: fullKey(t, key),
    ContentType: opts.contentType,
  });
  return await getSignedUrl(t.client, cmd, { expiresIn: presignSeconds(opts.expiresIn) });
}

/** A presigned URL for one part of a multipart upload. */
export async function presignPart(
  t: S3Target,
  key: string,
  uploadId: string,
  partNumber: number,
  opts: { expiresIn: number },
): Promise<string> {
  const cmd = new UploadPartCommand({
    Bucket: t.bucket,
    Key: fullKey(t, key),
    UploadId: uploadId,
    PartNumber: validatePartNumber(partNumber),
  });
  return await getSignedUrl(t.client, cmd, { expiresIn: presignSeconds(opts.expiresIn) });
}

function presignSeconds(expiresIn: number): number {
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new AppError("validation_failed", 400, { field: "expiresIn" });
  }
  return Math.min(Math.ceil(expiresIn), MAX_PRESIGN_SECONDS);
}
