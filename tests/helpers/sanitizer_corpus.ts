/**
 * HTML inputs for the differential test of the server's sanitiser (server/ssr/lite_dom_test.ts):
 * DOMPurify's own test payloads, every string literal of the repository's XSS tests, both as they
 * are and rendered as Markdown, and seeded random Markdown renderings and HTML soup (tags and
 * attributes that DOMPurify treats specially, hostile URLs and values, broken markup).
 */
import { join } from "node:path";
import { renderMarkdown } from "../../shared/markdown.ts";
import { DOMPURIFY_PAYLOADS } from "../fixtures/dompurify_payloads.ts";
import { prng, type Rng } from "./fuzz_inputs.ts";

/** The test files whose string literals are XSS payloads (or harmless, which costs nothing). */
export const XSS_TEST_FILES = [
  "shared/markdown_test.ts",
  "tests/e2e/xss.spec.ts",
  "server/ssr/paste_page_test.ts",
  "server/ssr/render_test.tsx",
  "server/ssr/document_test.ts",
];

const TAGS = [
  "p",
  "div",
  "span",
  "a",
  "img",
  "b",
  "i",
  "em",
  "code",
  "pre",
  "table",
  "tr",
  "td",
  "th",
  "tbody",
  "caption",
  "colgroup",
  "col",
  "ul",
  "ol",
  "li",
  "h1",
  "h6",
  "blockquote",
  "br",
  "hr",
  "input",
  "select",
  "option",
  "textarea",
  "button",
  "form",
  "label",
  "output",
  "iframe",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "mi",
  "mo",
  "mtext",
  "mglyph",
  "malignmark",
  "annotation-xml",
  "foreignObject",
  "desc",
  "title",
  "xmp",
  "noembed",
  "noframes",
  "plaintext",
  "frameset",
  "frame",
  "body",
  "html",
  "head",
  "meta",
  "link",
  "base",
  "object",
  "embed",
  "details",
  "summary",
  "video",
  "audio",
  "source",
  "picture",
  "x-custom",
  "font",
  "center",
  "marquee",
  "dialog",
  "slot",
  "image",
  "use",
  "animate",
  "set",
  "feImage",
  "path",
  "g",
  "text",
  "tspan",
  "a:b",
  "SCRIPT",
  "Img",
  "keygen",
  "applet",
  "param",
  "area",
  "map",
];
const ATTRS = [
  "href",
  "src",
  "id",
  "name",
  "class",
  "title",
  "alt",
  "onerror",
  "onclick",
  "ONLOAD",
  "style",
  "srcset",
  "action",
  "formaction",
  "is",
  "xlink:href",
  "xmlns",
  "xmlns:xlink",
  "data-x",
  "aria-label",
  "target",
  "rel",
  "width",
  "for",
  "patchsrc",
  "attributename",
  "value",
  "type",
  "srcdoc",
  "background",
  "poster",
  "ping",
  "dir",
  "lang",
  "role",
  "open",
  "colspan",
  "x:y",
  'a"b',
  "a'b",
  "a<b",
  "_x",
  "nonce",
  "shadowrootmode",
  "slot",
  "xml:lang",
  "definitionurl",
];
const VALUES = [
  "x",
  "javascript:alert(1)",
  " javascript:alert(1)",
  "JaVaScRiPt:x",
  "java\tscript:x",
  "java&#x09;script:x",
  "&#106;avascript:x",
  "data:image/png;base64,AAAA",
  "data:text/html,<script>x</script>",
  "https://example.com/a?b=c&d=e",
  "/rel",
  "#frag",
  "mailto:a@b.c",
  "tel:1",
  "vbscript:x",
  "cookie",
  "location",
  "attributes",
  "elements",
  "submit",
  "__proto__",
  "toString",
  "body",
  "nodeName",
  "<b>",
  "--></p>",
  "]>",
  "</style><img src=x>",
  "</title>x",
  "/>",
  'x"y',
  "a'b",
  "&amp;&lt;",
  "\u00a0 pad ",
  "  trimmed  ",
  "",
  "{{x}}",
  "<%= x %>",
  "\u2028x",
  "x\u0000y",
  "_blank",
  "ftp://h/x",
  "//evil.example",
  "\\\\evil",
];
const TEXTS = [
  "hello",
  "&lt;b&gt;",
  "<",
  ">",
  "&",
  "a&nbsp;b",
  "<!-- c -->",
  "<!--> x",
  "<![CDATA[x]]>",
  "<?pi x?>",
  "</p>",
  "</a>",
  "\u0000",
  "</title>",
  "`code`",
  "\n",
  "  ",
  "&#0;",
  "&amp",
  "é 文字",
  "<!---->",
  "<!--<img src=x>-->",
  "</noscript>",
  "<//",
  "<a",
  "x=y",
  "\t",
];

function attribute(r: Rng): string {
  const name = r.pick(ATTRS);
  if (r.chance(0.1)) return ` ${name}`;
  const value = r.pick(VALUES);
  const quote = r.pick(['"', "'", ""]);
  const safe = quote === "" ? value.replace(/[\s>]/g, "") : value.replaceAll(quote, "");
  return ` ${name}=${quote}${safe}${quote}`;
}

/** Random markup: nested tags with random attributes and text, some left unclosed. */
export function htmlSoup(r: Rng, depth = 0): string {
  let html = "";
  const parts = 1 + r.int(depth === 0 ? 5 : 3);
  for (let i = 0; i < parts; i++) {
    if (depth > 3 || r.chance(0.35)) {
      html += r.pick(TEXTS);
      continue;
    }
    const tag = r.pick(TAGS);
    let attrs = "";
    for (let n = r.int(4); n > 0; n--) attrs += attribute(r);
    html += `<${tag}${attrs}${r.chance(0.05) ? "/" : ""}>${htmlSoup(r, depth + 1)}`;
    if (r.chance(0.8)) html += `</${r.chance(0.95) ? tag : r.pick(TAGS)}>`;
  }
  return html;
}

const LANGS = ["js", "ts", "html", "xml", "nosuchlang", 'js" onmouseover="x', "", "python"];

/** Random Markdown: GFM blocks and inlines with hostile URLs and inline HTML. */
export function markdownSoup(r: Rng): string {
  const url = () => r.pick(VALUES).replace(/[\s()]/g, "") || "x";
  const inline = () =>
    r.pick([
      () => `**${r.pick(TEXTS)}**`,
      () => `_${r.pick(TEXTS)}_`,
      () => `~~x~~`,
      () => `[${r.pick(TEXTS)}](${url()}${r.chance(0.3) ? ` "${r.pick(VALUES)}"` : ""})`,
      () => `![${r.pick(TEXTS)}](${url()})`,
      () => `<${r.pick(["https://example.com", "javascript:alert(1)", "a@b.c", "x"])}>`,
      () => htmlSoup(r, 2),
      () => `\`${r.pick(TEXTS)}\``,
      () => r.pick(TEXTS),
      () => "https://example.com/auto",
    ])();
  const line = () => Array.from({ length: 1 + r.int(4) }, inline).join(" ");
  const blocks = [
    () => `${"#".repeat(1 + r.int(6))} ${line()}`,
    () => line(),
    () => `- ${line()}\n- [ ] ${line()}\n  1. ${line()}`,
    () => `> ${line()}\n> > ${line()}`,
    () => `| a | ${r.pick(TEXTS)} |\n|---|:-:|\n| ${line()} | ${inline()} |`,
    () => "```" + r.pick(LANGS) + "\n" + htmlSoup(r) + "\n```",
    () => `    ${htmlSoup(r)}`,
    () => htmlSoup(r),
    () => `[ref]: ${url()}\n\n[ref] and [x][ref]`,
    () => "---",
  ];
  return Array.from({ length: 1 + r.int(5) }, () => r.pick(blocks)()).join("\n\n");
}

/** JavaScript string literals in `source` (without interpolation), decoded. */
export function stringLiterals(source: string): string[] {
  const found: string[] = [];
  const literal = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`/g;
  for (const m of source.matchAll(literal)) {
    const body = m[1] ?? m[2] ?? m[3] ?? "";
    // As a JSON string: quotes escaped, and the escapes JSON lacks (\' and \`) undone.
    const json = body.replace(/\\.|"/g, (e) => e === '"' ? '\\"' : /^\\['`]$/.test(e) ? e[1] : e);
    try {
      found.push(JSON.parse(`"${json}"`));
    } catch {
      found.push(body); // an escape JSON does not know: the raw text is an input all the same
    }
  }
  return found;
}

/** The whole corpus: fixed inputs first, then `randomCount` of each random kind. */
export async function sanitizerCorpus(root: string, randomCount: number): Promise<string[]> {
  const literals: string[] = [];
  for (const file of XSS_TEST_FILES) {
    const source = await Deno.readTextFile(join(root, file));
    literals.push(...stringLiterals(source).filter((s) => /[<:&]/.test(s)));
  }
  const asMarkdown = (s: string) => renderMarkdown(s, (html) => html);
  const fixed = [...DOMPURIFY_PAYLOADS, ...literals];
  const corpus = [...fixed, ...fixed.map(asMarkdown)];
  const r = prng(20261124);
  for (let i = 0; i < randomCount; i++) {
    corpus.push(asMarkdown(markdownSoup(r)));
    corpus.push(htmlSoup(r));
  }
  return [...new Set(corpus)];
}
