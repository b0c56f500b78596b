import assert from "node:assert/strict";
import { DEFAULT_GALLERY, parseGallery, parseView, sortEntries } from "./view_settings.ts";
import type { FsEntry } from "./explorer_api.ts";

const e = (name: string, type: "file" | "directory", size = 0, modified: string | null = null) =>
  ({ name, path: `/m/${name}`, type, size, modified, mimetype: null }) as FsEntry;

Deno.test("view settings: stored values are parsed and clamped", () => {
  assert.deepEqual(parseGallery(null), DEFAULT_GALLERY);
  assert.deepEqual(parseGallery("not json"), DEFAULT_GALLERY);
  const g = parseGallery(
    JSON.stringify({ columns: 99, gapX: -3, gapY: 12.4, sortBy: "size", imagesOnly: true }),
  );
  assert.deepEqual([g.columns, g.gapX, g.gapY, g.sortBy, g.imagesOnly], [10, 0, 12, "size", true]);
  assert.equal(parseGallery(JSON.stringify({ sortBy: "evil" })).sortBy, "name");
  assert.equal(parseView("gallery"), "gallery");
  assert.equal(parseView("x"), "list");
});

Deno.test("view settings: sorting keeps folders first, numbers natural", () => {
  const items = [
    e("b10.txt", "file", 5, "2024-01-03T00:00:00Z"),
    e("zeta", "directory"),
    e("b2.png", "file", 50, "2024-01-01T00:00:00Z"),
    e("alpha", "directory"),
    e("a.md", "file", 1, "2024-01-02T00:00:00Z"),
  ];
  const names = (s: FsEntry[]) => s.map((x) => x.name);
  assert.deepEqual(names(sortEntries(items, "name", false)), [
    "alpha",
    "zeta",
    "a.md",
    "b2.png",
    "b10.txt",
  ]);
  assert.deepEqual(names(sortEntries(items, "name", true)), [
    "zeta",
    "alpha",
    "b10.txt",
    "b2.png",
    "a.md",
  ]);
  assert.deepEqual(names(sortEntries(items, "size", false)).slice(2), [
    "a.md",
    "b10.txt",
    "b2.png",
  ]);
  assert.deepEqual(names(sortEntries(items, "date", true)).slice(2), ["b10.txt", "a.md", "b2.png"]);
  assert.deepEqual(names(sortEntries(items, "type", false)).slice(2), [
    "a.md",
    "b2.png",
    "b10.txt",
  ]);
});
