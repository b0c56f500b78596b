/**
 * S3 multipart uploads: start, upload parts (bytes or a stream of known size), list the parts
 * to resume, complete, abort, and list open uploads. The driver's methods delegate here, and
 * so do streamed puts and large copies.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import {
  type CompletedPart,
  type MultipartUploadInfo,
  type PartInfo,
  type PutBody,
  validatePartNumber,
  validatePrefix,
} from "./driver.ts";
import { contentTypeFor, quoteEtag } from "./driver_wire.ts";
import { toByteStream } from "./driver_streams.ts";
import { callS3 } from "./s3_errors.ts";
import { sendStream } from "./s3_streams.ts";
import { fullKey, headObject, type S3Target, stripKey } from "./s3_target.ts";

/** Starts a multipart upload and returns its id; throws 502 when the store returns none. */
export async function createMultipart(
  t: S3Target,
  key: string,
  opts: { contentType?: string } = {},
): Promise<string> {
  const res = await callS3(
    t.client.send(
      new CreateMultipartUploadCommand({
        Bucket: t.bucket,
        Key: fullKey(t, key),
        ContentType: opts.contentType ?? contentTypeFor(key),
      }),
    ),
    key,
  );
  if (!res.UploadId) throw new AppError("storage_error", 502, { key, message: "No UploadId" });
  return res.UploadId;
}

/** Uploads one part held in memory; returns its quoted ETag. */
export async function uploadPartBytes(
  t: S3Target,
  key: string,
  UploadId: string,
  PartNumber: number,
  Body: Uint8Array,
  signal?: AbortSignal,
): Promise<{ etag: string }> {
  const res = await callS3(
    t.client.send(
      new UploadPartCommand({
        Bucket: t.bucket,
        Key: fullKey(t, key),
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

/** Uploads one part from bytes or a stream; a stream needs `size` (400 without it). */
export async function uploadPart(
  t: S3Target,
  key: string,
  uploadId: string,
  partNumber: number,
  body: PutBody,
  size?: number,
): Promise<{ etag: string }> {
  validatePartNumber(partNumber);
  if (typeof body === "string" || body instanceof Uint8Array) {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    toByteStream(bytes, size);
    return await uploadPartBytes(t, key, uploadId, partNumber, bytes);
  }
  if (size === undefined) {
    throw new AppError("validation_failed", 400, {
      field: "size",
      reason: "S3 parts need a size",
    });
  }
  const etag = await sendStream(
    body,
    size,
    (Body, signal) =>
      callS3(
        t.client.send(
          new UploadPartCommand({
            Bucket: t.bucket,
            Key: fullKey(t, key),
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

/** The parts uploaded so far, following the store's pages. */
export async function listParts(t: S3Target, key: string, uploadId: string): Promise<PartInfo[]> {
  const parts: PartInfo[] = [];
  let marker: string | undefined;
  do {
    const res = await callS3(
      t.client.send(
        new ListPartsCommand({
          Bucket: t.bucket,
          Key: fullKey(t, key),
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

/** Assembles the listed parts; throws 400 `storage_multipart_invalid` on an empty or bad list. */
export async function completeMultipart(
  t: S3Target,
  key: string,
  uploadId: string,
  parts: CompletedPart[],
): Promise<{ etag: string; size: number }> {
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new AppError("storage_multipart_invalid", 400, { uploadId, reason: "no parts" });
  }
  parts.forEach((p) => validatePartNumber(p.partNumber));
  const res = await callS3(
    t.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: t.bucket,
        Key: fullKey(t, key),
        UploadId: uploadId,
        MultipartUpload: {
          Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: quoteEtag(p.etag) })),
        },
      }),
    ),
    key,
  );
  const info = await headObject(t, key);
  return { etag: quoteEtag(res.ETag ?? info?.etag ?? ""), size: info?.size ?? 0 };
}

/** Discards an upload and its parts; an upload already gone counts as aborted. */
export async function abortMultipart(t: S3Target, key: string, uploadId: string): Promise<void> {
  try {
    await callS3(
      t.client.send(
        new AbortMultipartUploadCommand({
          Bucket: t.bucket,
          Key: fullKey(t, key),
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

/** Open uploads under a key prefix, following the store's pages. */
export async function listMultipartUploads(
  t: S3Target,
  prefix = "",
): Promise<MultipartUploadInfo[]> {
  validatePrefix(prefix);
  const out: MultipartUploadInfo[] = [];
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  for (;;) {
    const res = await callS3(
      t.client.send(
        new ListMultipartUploadsCommand({
          Bucket: t.bucket,
          Prefix: t.folder + prefix || undefined,
          KeyMarker,
          UploadIdMarker,
        }),
      ),
      prefix,
    );
    for (const u of res.Uploads ?? []) {
      if (!u.Key || !u.UploadId) continue;
      out.push({
        key: stripKey(t, u.Key),
        uploadId: u.UploadId,
        initiated: u.Initiated ?? new Date(0),
      });
    }
    if (!res.IsTruncated) return out;
    KeyMarker = res.NextKeyMarker;
    UploadIdMarker = res.NextUploadIdMarker;
  }
}
