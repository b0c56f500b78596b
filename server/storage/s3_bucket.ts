/**
 * Whether a driver's bucket exists, asked before Cubby hands a browser a presigned PUT. A PUT
 * to a missing bucket gets a 404 without CORS headers, which the browser reports as a network
 * failure that looks exactly like missing CORS rules; asking the server first names the real
 * cause. A bucket seen once is trusted for a minute (a TTL in memory: a deleted bucket is
 * noticed within that time, and nothing depends on it for correctness).
 */
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import { mapS3Error } from "./s3_errors.ts";
import type { S3Target } from "./s3_target.ts";

/** How long a bucket seen to exist is not asked about again. */
export const BUCKET_SEEN_TTL_MS = 60_000;

/** 502 `storage_bucket_not_found` for `bucket`. */
export function bucketNotFound(bucket: string, details: Record<string, unknown> = {}): AppError {
  return new AppError("storage_bucket_not_found", 502, { ...details, bucket });
}

/**
 * Throws 502 storage_bucket_not_found when the bucket does not exist, or the mapped failure
 * when the store cannot be reached. A 403 (keys allowed to write objects but not to look at the
 * bucket) counts as present. `seen` keeps the time of the last success.
 */
export async function ensureBucket(t: S3Target, seen: { at: number }): Promise<void> {
  if (Date.now() - seen.at < BUCKET_SEEN_TTL_MS) return;
  try {
    await t.client.send(new HeadBucketCommand({ Bucket: t.bucket }));
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    const status = e?.$metadata?.httpStatusCode;
    if (status === 404 || e?.name === "NoSuchBucket" || e?.name === "NotFound") {
      throw bucketNotFound(t.bucket);
    }
    if (!(status === 403 || e?.name === "AccessDenied" || e?.name === "Forbidden")) {
      throw mapS3Error(err, "");
    }
  }
  seen.at = Date.now();
}
