import assert from "node:assert/strict";
import { JSDOM } from "jsdom";
import DOMPurify, { type WindowLike } from "dompurify";
import { createSanitizer, renderMarkdown, SANITIZE_CONFIG, summarizeText } from "./markdown.ts";

const sanitize = createSanitizer(DOMPurify(new JSDOM("").window as unknown as WindowLike));
const render = (md: string) => renderMarkdown(md, sanitize);

/** Markdown that tries to run script; none of it may survive rendering. */
const XSS_PAYLOADS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "[x](javascript:alert(1))",
  "[x](JaVaScRiPt:alert(1))",
  "[x](&#106;avascript:alert(1))",
  "<svg onload=alert(1)><circle/></svg>",
  '<iframe src="https://evil.example"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.example"><input name=a></form>',
  '<a href="javascript:alert(1)">a</a>',
  '<a href="data:text/html,<script>alert(1)</script>">d</a>',
  '<div style="background:url(javascript:alert(1))" onclick="alert(1)">s</div>',
  "<style>body{display:none}</style>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  "![x](javascript:alert(1))",
  "<details open ontoggle=alert(1)>d</details>",
  '```"><script>alert(1)</script>\nx\n```',
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
];

/** Patterns that mean script could run or the page could be taken over. */
const DANGEROUS = [
  /<script/i,
  /<iframe/i,
  /<svg/i,
  /<object/i,
  /<embed/i,
  /<form/i,
  /<style/i,
  /<base/i,
  /<meta/i,
  /<math/i,
  /\son\w+\s*=/i,
  /javascript:/i,
  /href="data:/i,
  /style=/i,
];

Deno.test("renderMarkdown removes every XSS payload", () => {
  for (const payload of XSS_PAYLOADS) {
    const html = render(`# t\n\n${payload}\n\ntext after`);
    for (const bad of DANGEROUS) assert.doesNotMatch(html, bad, `${payload} → ${html}`);
    assert.match(html, /<h1>t<\/h1>/);
  }
});

Deno.test("renderMarkdown renders GFM: headings, tables, task lists, strikethrough, autolinks", () => {
  const html = render(
    "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~ https://example.com",
  );
  assert.match(html, /<h1>Title<\/h1>/);
  assert.match(html, /<table>[\s\S]*<td>1<\/td>/);
  assert.match(html, /<input[^>]*checked[^>]*type="checkbox"|<input[^>]*type="checkbox"/);
  assert.match(html, /<del>old<\/del>/);
  assert.match(html, /<a href="https:\/\/example\.com"/);
});

Deno.test("task-list checkboxes are named by their item's text, safely", () => {
  const html = render(
    '- [x] buy **milk** and [bread](https://b.example)\n- [ ] "><img src=x onerror=alert(1)>\n' +
      "  - [ ] nested\n\n1. [ ] loose\n\n2. [x] second",
  );
  const doc = new JSDOM(html).window.document;
  const names = [...doc.querySelectorAll("li > input[type=checkbox], li > p > input")]
    .map((box) => box.getAttribute("aria-label"));
  assert.deepEqual(names, ["buy milk and bread", '">', "nested", "loose", "second"]);
  // The same policy holds in a task item: the payload's handler never survives.
  for (const bad of DANGEROUS) assert.doesNotMatch(html, bad, html);
  assert.equal(doc.querySelector("img")?.getAttribute("onerror") ?? null, null);
});

Deno.test('code blocks are highlighted as <pre><code class="hljs language-x">', () => {
  const html = render("```ts\nconst a: number = 1;\n```");
  assert.match(html, /<pre><code class="hljs language-ts">/);
  assert.match(html, /<span class="hljs-keyword">const<\/span>/);

  const plain = render("```nosuchlang\n<b>x</b>\n```");
  assert.match(plain, /<code class="hljs language-nosuchlang">&lt;b&gt;x&lt;\/b&gt;/);

  const untagged = render("    indented <i>code</i>");
  assert.match(untagged, /<pre><code class="hljs">indented &lt;i&gt;code&lt;\/i&gt;/);

  const hostile = render('```js" onmouseover="alert(1)\nx\n```');
  assert.doesNotMatch(hostile, /onmouseover/);
  assert.match(hostile, /<code class="hljs">/);
});

Deno.test("links get rel=noopener noreferrer; external ones open in a new tab", () => {
  const html = render("[ext](https://example.com) [rel](/paste/abc) [mail](mailto:a@b.c)");
  assert.match(
    html,
    /<a href="https:\/\/example\.com" rel="noopener noreferrer" target="_blank">ext<\/a>/,
  );
  assert.match(html, /<a href="\/paste\/abc" rel="noopener noreferrer">rel<\/a>/);
  assert.match(html, /<a href="mailto:a@b\.c" rel="noopener noreferrer">mail<\/a>/);
  const raw = render('<a href="/x" target="_top">t</a>');
  assert.doesNotMatch(raw, /target="_top"/);
});

Deno.test("SANITIZE_CONFIG forbids active content and keeps hljs classes", () => {
  for (const tag of ["script", "style", "iframe", "object", "embed", "form"]) {
    assert.ok(SANITIZE_CONFIG.FORBID_TAGS.includes(tag), tag);
  }
  assert.match(sanitize('<span class="hljs-string">s</span>'), /class="hljs-string"/);
  assert.ok(!SANITIZE_CONFIG.ALLOWED_URI_REGEXP.test("javascript:alert(1)"));
  assert.ok(!SANITIZE_CONFIG.ALLOWED_URI_REGEXP.test("vbscript:x"));
  assert.ok(SANITIZE_CONFIG.ALLOWED_URI_REGEXP.test("https://example.com"));
  assert.ok(SANITIZE_CONFIG.ALLOWED_URI_REGEXP.test("#anchor"));
});

Deno.test("summarizeText gives plain text: no tags, link targets or markers", () => {
  assert.equal(summarizeText("  a\n\n b\tc  "), "a b c");
  assert.equal(
    summarizeText("# Title\n\n**bold** [link](javascript:alert(1)) <img src=x onerror=y> `c`"),
    "Title bold link c",
  );
  assert.equal(summarizeText("- item\n> quote\n1. one"), "item quote one");
  const s = summarizeText("😀".repeat(200), 150);
  assert.equal(Array.from(s).length, 151);
  assert.ok(s.endsWith("…"));
});
