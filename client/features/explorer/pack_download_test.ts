import assert from "node:assert/strict";
import {
  packSizeLevel,
  planPack,
  uniqueName,
  VERY_LARGE_PACK_BYTES,
  zipNameOf,
  zipPlan,
} from "./pack_download.ts";
import type { FsEntry, FsPage } from "./explorer_api.ts";
import { readZipEntries } from "../../../tests/e2e/pages/zip_entries.ts";

/** A folder tree as listing pages of two entries each (to exercise the cursor). */
function treeLister(tree: Record<string, FsEntry[]>) {
  return (path: string, cursor: string | null): Promise<FsPage> => {
    const all = tree[path] ?? [];
    const at = cursor ? Number(cursor) : 0;
    const next = at + 2 < all.length ? String(at + 2) : null;
    return Promise.resolve({ path, items: all.slice(at, at + 2), cursor: next, is_virtual: false });
  };
}

const file = (path: string, size: number): FsEntry => ({
  name: path.split("/").pop()!,
  path,
  type: "file",
  size,
  modified: "2024-05-01T10:00:00.000Z",
  mimetype: null,
});
const dir = (path: string): FsEntry => ({ ...file(path, 0), type: "directory" });

Deno.test("pack: names never collide, levels, zip names", () => {
  const taken = new Set<string>();
  assert.equal(uniqueName("a.txt", taken), "a.txt");
  assert.equal(uniqueName("a.txt", taken), "a (2).txt");
  assert.equal(uniqueName("a.txt", taken), "a (3).txt");
  assert.equal(uniqueName("dir/.env", taken), "dir/.env");
  assert.equal(uniqueName("dir/.env", taken), "dir/.env (2)");
  assert.equal(packSizeLevel(10), "normal");
  assert.equal(packSizeLevel(600 * 1024 * 1024), "large");
  assert.equal(packSizeLevel(VERY_LARGE_PACK_BYTES + 1), "veryLarge");
  assert.equal(
    zipNameOf([{ path: "/m/photos", name: "photos", type: "directory", size: 0 }]),
    "photos.zip",
  );
  assert.match(zipNameOf([], new Date(2024, 0, 2, 3, 4)), /^cubby-20240102-0304\.zip$/);
});

Deno.test("pack: folders are walked through every page; the zip holds every file", async () => {
  const tree = {
    "/m/photos": [
      file("/m/photos/1.jpg", 3),
      file("/m/photos/2.jpg", 3),
      dir("/m/photos/old"),
      file("/m/photos/3.jpg", 3),
      dir("/m/photos/empty"),
    ],
    "/m/photos/old": [file("/m/photos/old/0.jpg", 3)],
    "/m/photos/empty": [],
  };
  const plan = await planPack(
    [
      { path: "/m/photos", name: "photos", type: "directory", size: 0 },
      { path: "/m/a.txt", name: "a.txt", type: "file", size: 5 },
      { path: "/n/a.txt", name: "a.txt", type: "file", size: 5 },
    ],
    treeLister(tree),
  );
  assert.deepEqual(plan.files.map((f) => f.zipName), [
    "photos/1.jpg",
    "photos/2.jpg",
    "photos/3.jpg",
    "photos/old/0.jpg",
    "a.txt",
    "a (2).txt",
  ]);
  assert.deepEqual(plan.emptyFolders, ["photos/empty/"]);
  assert.equal(plan.totalBytes, 22);

  const states: string[] = [];
  const zip = zipPlan(plan, {
    onFile: (i, s) => states.push(`${i}:${s}`),
    // The bytes of each path are its own name; one file fails to fetch.
    fetchFile: (path) =>
      path === "/m/photos/2.jpg"
        ? Promise.reject(new Error("HTTP 500"))
        : Promise.resolve(new Response(path)),
  });
  const entries = readZipEntries(new Uint8Array(await zip.arrayBuffer()));
  assert.deepEqual(entries.map((e) => e.name), [
    "photos/empty/",
    "photos/1.jpg",
    "photos/3.jpg",
    "photos/old/0.jpg",
    "a.txt",
    "a (2).txt",
  ]);
  assert.equal(new TextDecoder().decode(entries[5].data!), "/n/a.txt");
  assert.ok(states.includes("1:failed"));
  assert.ok(states.includes("5:completed"));
});
