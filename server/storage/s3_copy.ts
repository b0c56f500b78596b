/** Server-side copies on S3: CopyObject up to 5 GiB, UploadPartCopy in 512 MiB parts above. */
import { CopyObjectCommand, UploadPartCopyCommand } from "@aws-sdk/client-s3";
import type { CompletedPart } from "./driver.ts";
import { encodeKeyPath } from "./driver_wire.ts";
import { callS3, notFound } from "./s3_errors.ts";
import { abortMultipart, completeMultipart, createMultipart } from "./s3_multipart.ts";
import { fullKey, headObject, type S3Target } from "./s3_target.ts";

const MAX_SINGLE_COPY = 5 * 1024 ** 3;
const COPY_PART_SIZE = 512 * 1024 ** 2;

/**
 * Copies an object inside the bucket on the server side: in one request up to 5 GiB, part by
 * part above. Throws 404 when `from` is missing; a failed part copy aborts the upload.
 */
export async function copyObject(t: S3Target, from: string, to: string): Promise<void> {
  const source = await headObject(t, from);
  if (!source) throw notFound(from);
  if (from === to) return;
  const Bucket = t.bucket;
  const CopySource = encodeKeyPath(`${Bucket}/${fullKey(t, from)}`);
  if (source.size <= MAX_SINGLE_COPY) {
    await callS3(
      t.client.send(new CopyObjectCommand({ Bucket, Key: fullKey(t, to), CopySource })),
      from,
    );
    return;
  }
  // CopyObject stops at 5 GiB; larger objects are copied part by part on the server.
  const uploadId = await createMultipart(t, to, { contentType: source.contentType });
  try {
    const parts: CompletedPart[] = [];
    for (let start = 0, n = 1; start < source.size; start += COPY_PART_SIZE, n++) {
      const end = Math.min(start + COPY_PART_SIZE, source.size) - 1;
      const res = await callS3(
        t.client.send(
          new UploadPartCopyCommand({
            Bucket,
            Key: fullKey(t, to),
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
    await completeMultipart(t, to, uploadId, parts);
  } catch (err) {
    await abortMultipart(t, to, uploadId).catch(() => {});
    throw err;
  }
}
