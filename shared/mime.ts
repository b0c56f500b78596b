/**
 * Content types by extension, with the Markdown rule of docs/PRODUCT.md §5.4: one table for uploads
 * on both sides and for the storage drivers' default types (storage/driver_wire.ts).
 */

export const MARKDOWN_EXTENSIONS = [
  "md",
  "markdown",
  "mdown",
  "mkd",
  "mdwn",
  "mdtxt",
  "mdtext",
  "rmd",
];

/** Content types by lower-case extension, without parameters (Markdown is added below). */
const TYPES: Record<string, string> = {
  txt: "text/plain",
  log: "text/plain",
  toml: "text/plain",
  ini: "text/plain",
  ts: "text/plain",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  json: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  bmp: "image/bmp",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  m4a: "audio/mp4",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  "7z": "application/x-7z-compressed",
  rar: "application/vnd.rar",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  wasm: "application/wasm",
};
for (const ext of MARKDOWN_EXTENSIONS) TYPES[ext] = "text/markdown";

/** The content type of an unknown extension. */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** The lower-case extension of a file name, without the dot ("" when none). */
export function extensionOf(filename: string): string {
  const base = filename.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** The content type for a file name's extension, without parameters; octet-stream if unknown. */
export function typeByExtension(filename: string): string {
  return TYPES[extensionOf(filename)] ?? DEFAULT_CONTENT_TYPE;
}

/**
 * The type to store for an upload: text/markdown for Markdown extensions, else the given
 * type, else one guessed from the extension, else application/octet-stream.
 */
export function contentTypeFor(filename: string, given?: string | null): string {
  if (MARKDOWN_EXTENSIONS.includes(extensionOf(filename))) return "text/markdown";
  const type = given?.split(";")[0].trim().toLowerCase();
  if (type && type !== DEFAULT_CONTENT_TYPE && /^[\w.+-]+\/[\w.+-]+$/.test(type)) {
    return type;
  }
  return typeByExtension(filename);
}
