import assert from "node:assert/strict";
import { contentTypeFor, extensionOf, MARKDOWN_EXTENSIONS, typeByExtension } from "./mime.ts";

Deno.test("typeByExtension reads the one table, case-insensitively, by the last dot", () => {
  const cases: [string, string][] = [
    ["photo.JPG", "image/jpeg"],
    ["a/b/archive.tar.gz", "application/gzip"],
    ["config.yaml", "application/yaml"],
    ["notes.mdown", "text/markdown"],
    [".bashrc", "application/octet-stream"],
    ["dir.d/README", "application/octet-stream"],
  ];
  for (const [name, type] of cases) assert.equal(typeByExtension(name), type, name);
  assert.equal(extensionOf("dir.d/README"), "");
});

Deno.test("contentTypeFor: Markdown by extension, then a valid given type, then the table", () => {
  for (const ext of MARKDOWN_EXTENSIONS) {
    assert.equal(contentTypeFor(`a.${ext}`, "text/plain"), "text/markdown");
  }
  const cases: [string, string | undefined, string][] = [
    ["a.bin", "Image/PNG; charset=x", "image/png"],
    ["a.pdf", "application/octet-stream", "application/pdf"],
    ["a.pdf", "not a type", "application/pdf"],
    ["a.unknown", undefined, "application/octet-stream"],
  ];
  for (const [name, given, type] of cases) assert.equal(contentTypeFor(name, given), type, name);
});
