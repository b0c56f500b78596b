/** Content types by extension, with spec §5's Markdown rule. Shared by upload code on both sides. */

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

const TYPES: Record<string, string> = {
  txt: "text/plain",
  log: "text/plain",
  csv: "text/csv",
  json: "application/json",
  xml: "application/xml",
  yaml: "text/yaml",
  yml: "text/yaml",
  toml: "text/plain",
  ini: "text/plain",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  ts: "text/plain",
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
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** The lower-case extension of a file name, without the dot ("" when none). */
export function extensionOf(filename: string): string {
  const base = filename.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * The type to store for an upload: text/markdown for Markdown extensions, else the given
 * type, else one guessed from the extension, else application/octet-stream.
 */
export function contentTypeFor(filename: string, given?: string | null): string {
  const ext = extensionOf(filename);
  if (MARKDOWN_EXTENSIONS.includes(ext)) return "text/markdown";
  const type = given?.split(";")[0].trim().toLowerCase();
  if (type && type !== "application/octet-stream" && /^[\w.+-]+\/[\w.+-]+$/.test(type)) {
    return type;
  }
  return TYPES[ext] ?? "application/octet-stream";
}
