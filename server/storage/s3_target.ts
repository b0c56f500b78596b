/**
 * What the S3 driver's modules share: the client, the bucket and the folder every key lives
 * under, with the key mapping both ways and the one read (HEAD) that several operations need.
 */
import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import { contentTypeFor, quoteEtag } from "./driver_wire.ts";
import { type ObjectInfo, validateKey } from "./driver.ts";
import { callS3 } from "./s3_errors.ts";

/** One bucket (and folder in it) reached through one client. */
export type S3Target = {
  readonly client: S3Client;
  readonly bucket: string;
  /** `""` or a folder ending in `/`, prepended to every key. */
  readonly folder: string;
};

/** The bucket key of a driver key; throws 400 `storage_path_invalid` on a bad key. */
export function fullKey(t: S3Target, key: string): string {
  return t.folder + validateKey(key);
}

/** The driver key of a bucket key under the folder. */
export function stripKey(t: S3Target, bucketKey: string): string {
  return bucketKey.slice(t.folder.length);
}

/** An object's metadata, or null when it does not exist; throws other failures as AppErrors. */
export async function headObject(t: S3Target, key: string): Promise<ObjectInfo | null> {
  try {
    const res = await callS3(
      t.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: fullKey(t, key) })),
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
