/**
 * What both drivers put on the wire or hand to callers in the same form: opaque list cursors,
 * ETags, Content-Disposition, URL-encoded keys and content types by extension.
 */
import { AppError } from "../errors.ts";
import { typeByExtension } from "../../shared/mime.ts";

const encoder = new TextEncoder();

/** Encodes a driver's cursor state as opaque base64url JSON. */
export function encodeCursor(state: unknown): string {
  let bin = "";
  for (const b of encoder.encode(JSON.stringify(state))) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Decodes a cursor made by `encodeCursor`; throws 400 `validation_failed` when malformed. */
export function decodeCursor(cursor: string): unknown {
  try {
    const bin = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("validation_failed", 400, { field: "cursor" });
  }
}

/** Strips quotes (and a weak prefix) so ETags from clients and stores compare equal. */
export function bareEtag(etag: string): string {
  return etag.replace(/^W\//, "").replaceAll('"', "");
}

/** Quotes an ETag value unless it already is. */
export function quoteEtag(etag: string): string {
  return etag.startsWith('"') || etag.startsWith('W/"') ? etag : `"${etag}"`;
}

/** A Content-Disposition header value with an ASCII fallback and an RFC 5987 UTF-8 name. */
export function contentDisposition(filename: string, download = true): string {
  const type = download ? "attachment" : "inline";
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (ch) => "%" + ch.charCodeAt(0).toString(16).toUpperCase(),
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Percent-encodes each segment of a key for use in a URL path. */
export function encodeKeyPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

/** The content type for a key's extension, with `charset=utf-8` on text types. */
export function contentTypeFor(key: string): string {
  const type = typeByExtension(key);
  return type.startsWith("text/") ? `${type}; charset=utf-8` : type;
}
