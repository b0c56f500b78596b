/** The highlight.js language of a text file, from its extension (null: show plain text). */
import { extensionOf } from "../../../../shared/mime.ts";

/** Extensions whose highlight.js name differs from the extension itself. */
const ALIASES: Record<string, string> = {
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescript",
  jsonc: "json",
  json5: "json",
  htm: "xml",
  html: "xml",
  xhtml: "xml",
  svg: "xml",
  vue: "xml",
  svelte: "xml",
  plist: "xml",
  toml: "ini",
  conf: "ini",
  cfg: "ini",
  env: "bash",
  properties: "ini",
  kts: "kotlin",
  h: "c",
  hpp: "cpp",
  cc: "cpp",
  cxx: "cpp",
  cs: "csharp",
  m: "objectivec",
  zsh: "bash",
  fish: "bash",
  patch: "diff",
  txt: "plaintext",
  log: "plaintext",
};

/** A language name for highlight.js, or null when there is nothing to highlight. */
export function codeLanguageOf(filename: string): string | null {
  const ext = extensionOf(filename) ||
    (filename.split("/").pop() ?? "").toLowerCase().replace(/^\.+/, "");
  if (!ext) return null;
  const lang = ALIASES[ext] ?? ext;
  return lang === "plaintext" ? null : lang;
}
