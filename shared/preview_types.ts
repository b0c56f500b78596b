/**
 * Which preview a shared file gets. The preview settings (docs/PRODUCT.md §3.7: the extension
 * lists of text, image, video, audio, office and document) hold one list of extensions per type;
 * these are the defaults until settings make them editable. Code and config files belong to the
 * text list. Markdown and HTML are text files with previews of their own (rendered Markdown,
 * and HTML in a sandboxed iframe with a source toggle); PDF is the document type.
 */
import { extensionOf, MARKDOWN_EXTENSIONS } from "./mime.ts";

export const PREVIEW_LIST_TYPES = [
  "text",
  "image",
  "video",
  "audio",
  "office",
  "document",
] as const;
/** A settings list: one of the six extension lists. */
export type PreviewListType = typeof PREVIEW_LIST_TYPES[number];
export type PreviewExtensionLists = Record<PreviewListType, readonly string[]>;

/** The preview a file gets on its share page. */
export type PreviewKind =
  | "markdown"
  | "html"
  | "text"
  | "image"
  | "video"
  | "audio"
  | "pdf"
  | "office"
  | "none";

const PLAIN_TEXT = ["txt", "text", "log", "csv", "tsv", "srt", "vtt", "tex", "diff", "patch"];
const CONFIG = [
  "json",
  "jsonc",
  "json5",
  "xml",
  "yaml",
  "yml",
  "toml",
  "ini",
  "conf",
  "cfg",
  "env",
  "properties",
  "plist",
  "lock",
];
const CODE = [
  "html",
  "htm",
  "css",
  "scss",
  "sass",
  "less",
  "js",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "mts",
  "cts",
  "tsx",
  "vue",
  "svelte",
  "py",
  "rb",
  "php",
  "go",
  "rs",
  "java",
  "kt",
  "kts",
  "scala",
  "groovy",
  "gradle",
  "c",
  "h",
  "cc",
  "cpp",
  "cxx",
  "hpp",
  "cs",
  "swift",
  "m",
  "dart",
  "lua",
  "pl",
  "r",
  "sql",
  "sh",
  "bash",
  "zsh",
  "fish",
  "ps1",
  "bat",
  "cmd",
  "dockerfile",
  "makefile",
  "graphql",
  "proto",
];

/** The default extension lists, lower case and without dots. */
export const DEFAULT_PREVIEW_EXTENSIONS: PreviewExtensionLists = {
  text: [...PLAIN_TEXT, ...MARKDOWN_EXTENSIONS, ...CONFIG, ...CODE],
  image: ["png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "bmp", "ico", "apng"],
  video: ["mp4", "webm", "ogv", "m4v", "mov", "mkv"],
  audio: ["mp3", "wav", "ogg", "oga", "opus", "flac", "m4a", "aac", "weba"],
  office: ["doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf"],
  document: ["pdf"],
};

const HTML_EXTENSIONS = ["html", "htm", "xhtml"];
const TEXTUAL_TYPES =
  /^(?:text\/|application\/(?:json|xml|javascript|x-yaml|yaml|toml|x-sh)\b)|\+(?:json|xml)$/;

/**
 * The preview of a file: by extension through the (given or default) lists first, then by
 * content type; "none" when neither matches (the page then offers the download only).
 */
export function previewTypeOf(
  filename: string,
  mimetype: string,
  lists: Partial<PreviewExtensionLists> = {},
): PreviewKind {
  const ext = extensionKey(filename);
  const type = mimetype.split(";")[0].trim().toLowerCase();
  const has = (list: PreviewListType) =>
    ext !== "" && (lists[list] ?? DEFAULT_PREVIEW_EXTENSIONS[list]).includes(ext);

  if (has("text")) return textKind(ext, type);
  if (has("image")) return "image";
  if (has("video")) return "video";
  if (has("audio")) return "audio";
  if (has("document")) return "pdf";
  if (has("office")) return "office";

  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  if (type === "application/pdf") return "pdf";
  if (TEXTUAL_TYPES.test(type)) return textKind(ext, type);
  return "none";
}

/** The extension, or for names without one ("Dockerfile", ".env") the name itself. */
function extensionKey(filename: string): string {
  const ext = extensionOf(filename);
  if (ext) return ext;
  const base = (filename.split("/").pop() ?? "").toLowerCase();
  return /^\.*[^.]+$/.test(base) ? base.replace(/^\.+/, "") : "";
}

function textKind(ext: string, type: string): PreviewKind {
  if (MARKDOWN_EXTENSIONS.includes(ext) || type === "text/markdown") return "markdown";
  if (HTML_EXTENSIONS.includes(ext) || type === "text/html") return "html";
  return "text";
}

/** The longest extension a preview list holds. */
export const EXTENSION_MAX_LENGTH = 32;
const EXTENSION = /^[a-z0-9][a-z0-9_+-]*$/;

/** Why an entry of an extension list is refused, with the entry (cut to 24 characters). */
export type ExtensionProblem = {
  error: "setting_extension_too_long" | "setting_extension_invalid";
  params: { entry: string; length: number; max: number };
};

/**
 * The first entry of a settings list that is no extension: longer than 32 characters, or
 * holding other characters than letters, digits, `_`, `+` and `-` (after a leading dot). Null
 * when every entry is fine.
 */
export function extensionListProblem(value: string): ExtensionProblem | null {
  for (const raw of value.split(/[\s,;]+/)) {
    const ext = raw.trim().replace(/^\.+/, "").toLowerCase();
    if (!ext) continue;
    const length = [...ext].length;
    const entry = length > 24 ? `${[...raw].slice(0, 24).join("")}…` : raw;
    const params = { entry, length, max: EXTENSION_MAX_LENGTH };
    if (length > EXTENSION_MAX_LENGTH) return { error: "setting_extension_too_long", params };
    if (!EXTENSION.test(ext)) return { error: "setting_extension_invalid", params };
  }
  return null;
}

/**
 * Parses a settings list ("txt, md .json") into lower-case extensions without dots,
 * de-duplicated, in order. Commas, semicolons and white space all separate entries.
 */
export function parseExtensionList(value: string): string[] {
  const out: string[] = [];
  for (const raw of value.split(/[\s,;]+/)) {
    const ext = raw.trim().replace(/^\.+/, "").toLowerCase();
    if (ext && !out.includes(ext)) out.push(ext);
  }
  return out;
}
