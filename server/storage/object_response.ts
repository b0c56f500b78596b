/** Serving stored bytes: Range parsing, conditional requests and the response headers. */
import type { GetResult } from "./driver.ts";
import { contentDisposition } from "./driver_wire.ts";

/** Builds the response for an object (200 or 206) as user content. */
export function objectResponse(
  obj: GetResult,
  opts: { filename: string; contentType: string; download: boolean; head?: boolean },
): Response {
  const headers = new Headers(userContentHeaders());
  headers.set("Content-Type", opts.contentType);
  headers.set("Content-Length", String(obj.size));
  headers.set("Accept-Ranges", "bytes");
  headers.set("ETag", obj.etag);
  headers.set("Last-Modified", obj.lastModified.toUTCString());
  headers.set("Content-Disposition", contentDisposition(opts.filename, opts.download));
  let status = 200;
  if (obj.range) {
    status = 206;
    headers.set("Content-Range", `bytes ${obj.range.start}-${obj.range.end}/${obj.range.total}`);
  }
  if (opts.head) {
    obj.body.cancel().catch(() => {});
    return new Response(null, { status, headers });
  }
  return new Response(obj.body, { status, headers });
}

/** A file opened from a mount: its bytes (or a range of them), its name and its type. */
export type OpenedFile = { object: GetResult; name: string; contentType: string };

/** The reply to a GET or HEAD (`method`) of an opened file, as a download or to show inline. */
export function openedFileResponse(file: OpenedFile, method: string, download: boolean): Response {
  return objectResponse(file.object, {
    filename: file.name,
    contentType: file.contentType,
    download,
    head: method === "HEAD",
  });
}

/** Headers for user content served from our origin (raw pastes, file view, proxy, WebDAV). */
export function userContentHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": "sandbox",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
  };
}
