/**
 * Markdown rendering shared by the server (share pages) and the browser (editor preview,
 * paste view), so both produce the same HTML under the same sanitising policy
 * (docs/PRODUCT.md §13.7). `marked` turns GFM into HTML, code blocks are highlighted with
 * highlight.js, and the caller's DOMPurify instance (on server/ssr/lite_window.ts on the
 * server, on `window` in the browser) cleans the result. Never insert `marked` output without sanitising it.
 */
import { Marked, type Token, type Tokens } from "marked";
import hljs from "highlight.js/lib/common";
import type { Config, DOMPurify } from "dompurify";

/** Schemes allowed in href/src: http(s), mailto, tel, and relative or fragment URLs. */
const SAFE_URI = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** The one DOMPurify policy for rendered Markdown, on the server and in the browser. */
export const SANITIZE_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    "script",
    "style",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "form",
    "button",
    "textarea",
    "select",
    "base",
    "link",
    "meta",
    "noscript",
    "template",
    "svg",
    "math",
  ],
  FORBID_ATTR: ["style", "srcset", "action", "formaction", "ping", "xlink:href"],
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOWED_URI_REGEXP: SAFE_URI,
  RETURN_TRUSTED_TYPE: false,
} satisfies Config;

/** The language of a code block's info string, reduced to a safe class token (or ""). */
function languageOf(info: string | undefined): string {
  const first = (info ?? "").trim().split(/\s+/)[0] ?? "";
  return /^[A-Za-z0-9_+#.-]{1,40}$/.test(first) ? first.toLowerCase() : "";
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

/** Highlight at most this much code per block; larger blocks are shown escaped, unhighlighted. */
const MAX_HIGHLIGHT_CHARS = 200_000;

/** Renders a fenced or indented code block as `<pre><code class="hljs language-x">`. */
function renderCode({ text, lang }: Tokens.Code): string {
  const language = languageOf(lang);
  const known = language !== "" && hljs.getLanguage(language) !== undefined;
  const body = known && text.length <= MAX_HIGHLIGHT_CHARS
    ? hljs.highlight(text, { language, ignoreIllegals: true }).value
    : escapeHtml(text);
  const cls = language ? `hljs language-${language}` : "hljs";
  return `<pre><code class="${cls}">${body}\n</code></pre>\n`;
}

/** A task-list checkbox token, with the accessible name `labelTasks` gives it. */
type TaskCheckbox = Tokens.Checkbox & { label?: string };

/**
 * Gives the checkbox of each task-list item the item's own text (its first line, without
 * Markdown) as its accessible name: a form control needs one, and the item's text is what the
 * box says is done or not.
 */
function labelTasks(token: Token): void {
  if (token.type !== "list_item" || !(token as Tokens.ListItem).task) return;
  const item = token as Tokens.ListItem;
  const first = item.tokens[0];
  const box = (first?.type === "checkbox" ? first : (first as Tokens.Paragraph | undefined)
    ?.tokens?.find((t) => t.type === "checkbox")) as TaskCheckbox | undefined;
  if (!box) return;
  box.label = summarizeText(item.text.split("\n")[0] ?? "", 200) || box.raw.trim();
}

/** Renders a task-list checkbox: read-only, with its item's text as its name. */
function renderCheckbox(token: Tokens.Checkbox): string {
  const { checked, label } = token as TaskCheckbox;
  const name = label ? ` aria-label="${escapeHtml(label)}"` : "";
  return `<input ${checked ? 'checked="" ' : ""}disabled="" type="checkbox"${name}> `;
}

const markdown = new Marked({
  gfm: true,
  breaks: false,
  renderer: { code: renderCode, checkbox: renderCheckbox },
  walkTokens: labelTasks,
});

/** Renders Markdown (GFM) to HTML and passes it through `sanitize`; never throws on input. */
export function renderMarkdown(source: string, sanitize: (html: string) => string): string {
  const html = markdown.parse(source, { async: false }) as string;
  return sanitize(html);
}

/**
 * Turns a DOMPurify instance into the sanitiser for `renderMarkdown`: applies SANITIZE_CONFIG
 * and gives every link `rel="noopener noreferrer"` (external links also open in a new tab).
 * Call it once per instance: it installs a hook.
 */
export function createSanitizer(purify: DOMPurify): (html: string) => string {
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const el = node as Element;
    const href = el.getAttribute("href");
    if (href === null) {
      el.removeAttribute("target");
      return;
    }
    el.setAttribute("rel", "noopener noreferrer");
    if (/^https?:\/\//i.test(href)) el.setAttribute("target", "_blank");
    else el.removeAttribute("target");
  });
  return (html) => purify.sanitize(html, SANITIZE_CONFIG) as string;
}

/**
 * A plain-text summary of Markdown for meta descriptions: tags, link targets and Markdown
 * markers dropped, whitespace collapsed, at most `max` code points (then "…").
 */
export function summarizeText(source: string, max = 150): string {
  const text = source.slice(0, max * 8)
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, "$1")
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
    .replace(/[*_~`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join("") + "…" : text;
}
