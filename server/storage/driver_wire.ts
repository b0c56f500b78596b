/**
 * What both drivers put on the wire or hand to callers in the same form: opaque list cursors,
 * ETags, Content-Disposition, URL-encoded keys and content types by extension.
 */
import { AppError } from "../errors.ts";

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

/** Content types by lower-case file extension. */
const CONTENT_TYPES: Record<string, string> = {
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  log: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  json: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  "7z": "application/x-7z-compressed",
  rar: "application/vnd.rar",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  bmp: "image/bmp",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  wasm: "application/wasm",
};

/** The content type of an unknown extension. */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** The content type for a key's extension, or `application/octet-stream`. */
export function contentTypeFor(key: string): string {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  return CONTENT_TYPES[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}
