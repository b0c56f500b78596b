/**
 * WebDAV PUT: the body streams to the driver. The `webdav_upload_mode` setting picks one
 * streamed put ("direct") or a multipart upload whose parts are cut from the stream as it
 * arrives ("multipart"), holding one part in memory at a time. The max upload size setting
 * applies (413 file_too_large naming the limit), as to every upload.
 */
import type { DavContext, DavRequest } from "./webdav_context.ts";
import { baseName, parentOf } from "./webdav_paths.ts";
import { checkPreconditions, DAV_METHODS, davText } from "./webdav_http.ts";
import { MIN_PART_SIZE } from "../storage/driver.ts";

/** Parts stay under 10,000 (S3's limit) up to ~78 GiB of unknown length; equal sizes (R2). */
const UNKNOWN_LENGTH_PART = 8 * 1024 * 1024;

/** The part size for a body of `size` bytes (when known): 5 MiB, or more for huge files. */
export function partSizeFor(size: number | undefined): number {
  if (size === undefined) return UNKNOWN_LENGTH_PART;
  const mib = 1024 * 1024;
  return Math.max(MIN_PART_SIZE, Math.ceil(size / 9_000 / mib) * mib);
}

/** Cuts a byte stream into parts of exactly `partSize` bytes (the last may be shorter). */
export async function* partsOf(
  stream: ReadableStream<Uint8Array>,
  partSize: number,
): AsyncGenerator<Uint8Array> {
  let buf = new Uint8Array(partSize);
  let filled = 0;
  for await (let chunk of stream) {
    while (chunk.length > 0) {
      const n = Math.min(partSize - filled, chunk.length);
      buf.set(chunk.subarray(0, n), filled);
      filled += n;
      chunk = chunk.subarray(n);
      if (filled === partSize) {
        yield buf;
        buf = new Uint8Array(partSize);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buf.subarray(0, filled);
}

function declaredSize(headers: Headers): number | undefined {
  const len = headers.get("content-length");
  if (headers.has("transfer-encoding") || !len || !/^\d+$/.test(len)) return undefined;
  return Number(len);
}

/** PUT: creates (201) or replaces (204) a file whose parent folder exists. */
export async function handlePut(dav: DavContext, req: DavRequest): Promise<Response> {
  const t = await dav.target(req);
  if (t.entry?.type === "directory") {
    await req.body?.cancel().catch(() => {});
    return davText(405, "method_not_allowed", req.lang, { Allow: DAV_METHODS.join(", ") });
  }
  if (!t.r || !t.r.key) return davText(403, "webdav_virtual_folder", req.lang);
  const parent = parentOf(t.path);
  if (!await dav.isCollection(parent, req.auth)) {
    return davText(409, "webdav_parent_missing", req.lang);
  }
  if (checkPreconditions(req.headers, t.entry, false)) {
    return davText(412, "webdav_precondition_failed", req.lang);
  }
  const blocked = await dav.checkWrite(req, t, dav.lockTarget(t, false, t.entry === null));
  if (blocked) return blocked;
  const size = declaredSize(req.headers);
  try {
    // A body announced over the max upload size is refused before a byte is stored.
    await dav.fs.checkUploadSize(size);
  } catch (err) {
    await req.body?.cancel().catch(() => {});
    throw err;
  }
  const body = req.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  const name = baseName(t.path);
  const entry = await dav.settings.getWebdavUploadMode() === "multipart"
    ? await dav.fs.uploadMultipart(parent, name, partsOf(body, partSizeFor(size)), req.auth)
    : await dav.fs.upload(parent, name, body, req.auth, req.body ? size : 0);
  const headers: Record<string, string> = entry.etag ? { ETag: entry.etag } : {};
  return new Response(null, { status: t.entry ? 204 : 201, headers });
}
