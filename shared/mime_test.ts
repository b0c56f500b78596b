import assert from "node:assert/strict";
import { contentTypeFor, extensionOf, MARKDOWN_EXTENSIONS, typeByExtension } from "./mime.ts";

Deno.test("typeByExtension reads the one table, case-insensitively, by the last dot", () => {
  assert.equal(typeByExtension("photo.JPG"), "image/jpeg");
  assert.equal(typeByExtension("a/b/archive.tar.gz"), "application/gzip");
  assert.equal(typeByExtension("config.yaml"), "application/yaml");
  assert.equal(typeByExtension("notes.mdown"), "text/markdown");
  assert.equal(typeByExtension(".bashrc"), "application/octet-stream");
  assert.equal(typeByExtension("dir.d/README"), "application/octet-stream");
  assert.equal(extensionOf("dir.d/README"), "");
});

Deno.test("contentTypeFor: Markdown by extension, then a valid given type, then the table", () => {
  for (const ext of MARKDOWN_EXTENSIONS) {
    assert.equal(contentTypeFor(`a.${ext}`, "text/plain"), "text/markdown");
  }
  assert.equal(contentTypeFor("a.bin", "Image/PNG; charset=x"), "image/png");
  assert.equal(contentTypeFor("a.pdf", "application/octet-stream"), "application/pdf");
  assert.equal(contentTypeFor("a.pdf", "not a type"), "application/pdf");
  assert.equal(contentTypeFor("a.unknown"), "application/octet-stream");
});
