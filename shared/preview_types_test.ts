import assert from "node:assert/strict";
import {
  DEFAULT_PREVIEW_EXTENSIONS,
  parseExtensionList,
  PREVIEW_LIST_TYPES,
  previewTypeOf,
} from "./preview_types.ts";
import { MARKDOWN_EXTENSIONS } from "./mime.ts";

Deno.test("previewTypeOf picks the preview by extension", () => {
  const cases: [string, string, string][] = [
    ["notes.txt", "text/plain", "text"],
    ["app.config.JSON", "application/json", "text"],
    ["compose.yml", "application/octet-stream", "text"],
    ["main.rs", "application/octet-stream", "text"],
    ["Dockerfile", "application/octet-stream", "text"],
    [".env", "application/octet-stream", "text"],
    ["README.md", "text/markdown", "markdown"],
    ["guide.Rmd", "application/octet-stream", "markdown"],
    ["index.html", "text/html", "html"],
    ["photo.JPG", "image/jpeg", "image"],
    ["logo.svg", "image/svg+xml", "image"],
    ["clip.webm", "video/webm", "video"],
    ["song.mp3", "audio/mpeg", "audio"],
    ["paper.pdf", "application/pdf", "pdf"],
    ["report.docx", "application/octet-stream", "office"],
    ["sheet.xlsx", "application/vnd.ms-excel", "office"],
    ["archive.zip", "application/zip", "none"],
    ["noext", "application/octet-stream", "none"],
  ];
  for (const [name, type, want] of cases) assert.equal(previewTypeOf(name, type), want, name);
});

Deno.test("previewTypeOf falls back to the content type", () => {
  assert.equal(previewTypeOf("blob", "image/png"), "image");
  assert.equal(previewTypeOf("blob", "video/mp4"), "video");
  assert.equal(previewTypeOf("blob", "audio/ogg; codecs=opus"), "audio");
  assert.equal(previewTypeOf("blob", "application/pdf"), "pdf");
  assert.equal(previewTypeOf("blob", "text/markdown"), "markdown");
  assert.equal(previewTypeOf("blob", "text/html; charset=utf-8"), "html");
  assert.equal(previewTypeOf("blob", "application/ld+json"), "text");
  assert.equal(previewTypeOf("blob", "application/octet-stream"), "none");
});

Deno.test("previewTypeOf follows the given lists over the defaults", () => {
  assert.equal(previewTypeOf("a.mkv", "application/octet-stream", { video: ["mp4"] }), "none");
  assert.equal(previewTypeOf("a.foo", "application/octet-stream", { text: ["foo"] }), "text");
  assert.equal(previewTypeOf("a.pdf", "application/octet-stream", { document: [] }), "none");
  // An extension in an emptied list still gets a preview from a matching content type.
  assert.equal(previewTypeOf("a.pdf", "application/pdf", { document: [] }), "pdf");
});

Deno.test("the default lists are lower case, dot-free, unique and cover the examples of docs/PRODUCT.md §9.1", () => {
  const seen = new Set<string>();
  for (const type of PREVIEW_LIST_TYPES) {
    for (const ext of DEFAULT_PREVIEW_EXTENSIONS[type]) {
      assert.match(ext, /^[a-z0-9]+$/, `${type}: ${ext}`);
      assert.ok(!seen.has(ext), `${ext} is in more than one list`);
      seen.add(ext);
    }
  }
  for (const ext of ["txt", "md", "json", ...MARKDOWN_EXTENSIONS]) {
    assert.ok(DEFAULT_PREVIEW_EXTENSIONS.text.includes(ext), ext);
  }
  assert.ok(DEFAULT_PREVIEW_EXTENSIONS.document.includes("pdf"));
});

Deno.test("parseExtensionList normalises a settings value", () => {
  assert.deepEqual(parseExtensionList(" .TXT, md;json  md\n.yaml "), ["txt", "md", "json", "yaml"]);
  assert.deepEqual(parseExtensionList(""), []);
});
