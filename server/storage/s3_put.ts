/**
 * Writing an object to S3 from bytes or a stream. Bytes, and streams of known size up to the
 * threshold, are one PutObject with ContentLength; larger or unknown sizes go through a
 * multipart upload that holds one part in memory at a time (one buffer, reused), with part sizes that grow so that
 * 10,000 parts reach terabytes. A body that turns out shorter than one part is sent as one put.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import { type CompletedPart, MAX_PART_NUMBER, type PutBody, type PutOptions } from "./driver.ts";
import { contentTypeFor, quoteEtag } from "./driver_wire.ts";
import { toByteStream } from "./driver_streams.ts";
import { callS3, sizeMismatch } from "./s3_errors.ts";
import {
  abortMultipart,
  completeMultipart,
  createMultipart,
  uploadPartBytes,
} from "./s3_multipart.ts";
import { PartReader, sendStream } from "./s3_streams.ts";
import { fullKey, type S3Target } from "./s3_target.ts";

/** When a put switches to multipart, and the part size it starts with. */
export type PutSizes = { threshold: number; partSize: number };

/** Writes an object; throws 400 `storage_size_mismatch` when the body is not `opts.size` long. */
export async function putObject(
  t: S3Target,
  sizes: PutSizes,
  key: string,
  body: PutBody,
  opts: PutOptions = {},
): Promise<{ etag: string; size: number }> {
  const Key = fullKey(t, key);
  const ContentType = opts.contentType ?? contentTypeFor(key);
  if (typeof body === "string" || body instanceof Uint8Array) {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    toByteStream(bytes, opts.size); // checks a declared size
    const res = await callS3(
      t.client.send(
        new PutObjectCommand({
          Bucket: t.bucket,
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
  if (opts.size !== undefined && opts.size <= sizes.threshold) {
    const etag = await sendStream(
      body,
      opts.size,
      (Body, signal) =>
        callS3(
          t.client.send(
            new PutObjectCommand({
              Bucket: t.bucket,
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
  return await multipartPut(t, sizes, key, body, opts.size, ContentType, opts.signal);
}

/** The size of part `n` of a streamed upload: doubles every 1,000 parts when size is unknown. */
function partSizeFor(partSize: number, n: number, expected?: number): number {
  if (expected !== undefined) {
    return Math.max(partSize, Math.ceil(expected / MAX_PART_NUMBER));
  }
  return partSize * 2 ** Math.floor((n - 1) / 1000);
}

/** Streams a body of unknown or large size through a multipart upload, aborted on failure. */
async function multipartPut(
  t: S3Target,
  sizes: PutSizes,
  key: string,
  stream: ReadableStream<Uint8Array>,
  expected: number | undefined,
  ContentType: string,
  signal?: AbortSignal,
): Promise<{ etag: string; size: number }> {
  const reader = new PartReader(stream);
  let total = 0;
  const nextPart = async (n: number) => {
    const part = await reader.next(partSizeFor(sizes.partSize, n, expected), signal);
    total += part.length;
    if (expected !== undefined && total > expected) throw sizeMismatch(expected, total);
    return part;
  };
  let uploadId: string | null = null;
  try {
    let part = await nextPart(1);
    if (part.length < partSizeFor(sizes.partSize, 1, expected)) { // the whole body fits in one request
      if (expected !== undefined && total !== expected) throw sizeMismatch(expected, total);
      return await putObject(t, sizes, key, part, { contentType: ContentType, signal });
    }
    uploadId = await createMultipart(t, key, { contentType: ContentType });
    const parts: CompletedPart[] = [];
    for (let n = 1; part.length > 0; n++) {
      if (n > MAX_PART_NUMBER) {
        throw new AppError("storage_error", 502, { message: "Too many parts" });
      }
      const { etag } = await uploadPartBytes(t, key, uploadId, n, part, signal);
      parts.push({ partNumber: n, etag });
      part = await nextPart(n + 1);
    }
    if (expected !== undefined && total !== expected) throw sizeMismatch(expected, total);
    const done = await completeMultipart(t, key, uploadId, parts);
    uploadId = null;
    return done;
  } catch (err) {
    await reader.cancel(err).catch(() => {});
    if (uploadId) await abortMultipart(t, key, uploadId).catch(() => {});
    throw err;
  }
}
