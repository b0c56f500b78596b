/**
 * Listing and prefix deletion on S3. List cursors wrap the continuation token with the last
 * common prefix returned, so no prefix is reported twice across pages, even by stores that
 * repeat them (s3rver does). Folder marker objects (keys ending in `/`) are not listed.
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import {
  clampLimit,
  type ListOptions,
  type ListResult,
  type ObjectInfo,
  validatePrefix,
} from "./driver.ts";
import { decodeCursor, encodeCursor, quoteEtag } from "./driver_wire.ts";
import { callS3 } from "./s3_errors.ts";
import { type S3Target, stripKey } from "./s3_target.ts";

/** One page of keys under a prefix; throws 400 `validation_failed` on a foreign cursor. */
export async function listObjects(
  t: S3Target,
  prefix: string,
  opts: ListOptions = {},
): Promise<ListResult> {
  validatePrefix(prefix);
  const cursor = opts.cursor ? decodeS3Cursor(opts.cursor) : null;
  const res = await callS3(
    t.client.send(
      new ListObjectsV2Command({
        Bucket: t.bucket,
        Prefix: t.folder + prefix || undefined,
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
      key: stripKey(t, o.Key),
      size: o.Size ?? 0,
      etag: quoteEtag(o.ETag ?? ""),
      lastModified: o.LastModified ?? new Date(0),
    });
  }
  const seen = cursor?.p ?? "";
  const prefixes = (res.CommonPrefixes ?? [])
    .map((p) => stripKey(t, p.Prefix ?? ""))
    .filter((p) => p !== "" && p > seen);
  const next = res.IsTruncated ? res.NextContinuationToken : undefined;
  const lastPrefix = prefixes.reduce((a, b) => (b > a ? b : a), seen);
  return { items, prefixes, cursor: next ? encodeCursor({ t: next, p: lastPrefix }) : null };
}

/** Deletes every object under a non-empty prefix, a page at a time; throws 400 on `""`. */
export async function deletePrefix(
  t: S3Target,
  prefix: string,
  batchDelete: boolean,
): Promise<void> {
  validatePrefix(prefix);
  if (prefix === "") throw new AppError("storage_path_invalid", 400, { key: prefix });
  let token: string | undefined;
  do {
    const page = await callS3(
      t.client.send(
        new ListObjectsV2Command({
          Bucket: t.bucket,
          Prefix: t.folder + prefix,
          ContinuationToken: token,
        }),
      ),
      prefix,
    );
    const keys = (page.Contents ?? []).map((o) => o.Key!).filter(Boolean);
    if (keys.length) await deleteMany(t, keys, batchDelete);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/** Deletes bucket keys (≤ 1000) in one request, or one by one where batches do not work. */
async function deleteMany(t: S3Target, keys: string[], batchDelete: boolean): Promise<void> {
  if (batchDelete) {
    try {
      const res = await callS3(
        t.client.send(
          new DeleteObjectsCommand({
            Bucket: t.bucket,
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
        callS3(t.client.send(new DeleteObjectCommand({ Bucket: t.bucket, Key })), Key)
      ),
    );
  }
}

function decodeS3Cursor(cursor: string): { t: string; p: string } {
  const c = decodeCursor(cursor) as { t?: unknown; p?: unknown } | null;
  if (typeof c?.t === "string" && typeof c?.p === "string") return { t: c.t, p: c.p };
  throw new AppError("validation_failed", 400, { field: "cursor" });
}
