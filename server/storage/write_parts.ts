/** Writing one object as a multipart upload from a sequence of parts. */
import type { CompletedPart, StorageDriver } from "./driver.ts";

/**
 * Writes `key` as a multipart upload, one part per item of `parts` (every part but the last at
 * least 5 MiB), so a stream of unknown length never sits in memory whole. The upload is
 * aborted when anything fails.
 */
export async function writeParts(
  driver: StorageDriver,
  key: string,
  parts: AsyncIterable<Uint8Array>,
  contentType: string,
): Promise<void> {
  const uploadId = await driver.createMultipart(key, { contentType });
  const done: CompletedPart[] = [];
  try {
    for await (const part of parts) {
      const n = done.length + 1;
      done.push({
        partNumber: n,
        etag: (await driver.uploadPart(key, uploadId, n, part)).etag,
      });
    }
    if (done.length === 0) {
      const { etag } = await driver.uploadPart(key, uploadId, 1, new Uint8Array(0));
      done.push({ partNumber: 1, etag });
    }
    await driver.completeMultipart(key, uploadId, done);
  } catch (err) {
    await driver.abortMultipart(key, uploadId).catch(() => {});
    throw err;
  }
}
