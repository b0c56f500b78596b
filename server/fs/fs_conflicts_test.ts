import assert from "node:assert/strict";
import { existingIn, freeName, limitParts, numberedName, placeUpload } from "./fs_conflicts.ts";
import { AppError } from "../errors.ts";
import type { FsEntry } from "../../shared/schemas/fs.ts";

/** What a folder listing would say is at each path (the callers pass FsService.stat). */
function statOf(entries: Record<string, "file" | "directory">) {
  const asked: string[] = [];
  const stat = (path: string): Promise<FsEntry | null> => {
    asked.push(path);
    const type = entries[path];
    if (!type) return Promise.resolve(null);
    const name = path.slice(path.lastIndexOf("/") + 1);
    return Promise.resolve({ name, path, type, size: 0, modified: null, mimetype: null });
  };
  return { stat, asked };
}

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return err;
}

Deno.test("numbered names go before the extension; dot files and plain names at the end", () => {
  assert.equal(numberedName("report.pdf", 2), "report (2).pdf");
  assert.equal(numberedName("archive.tar.gz", 1), "archive.tar (1).gz");
  assert.equal(numberedName(".env", 2), ".env (2)");
  assert.equal(numberedName("README", 3), "README (3)");
});

Deno.test("freeName: the first free of name, name (1)…; 409 when all 1000 are taken", async () => {
  assert.equal(await freeName("a.txt", () => Promise.resolve(false)), "a.txt");
  const taken = new Set(["a.txt", "a (1).txt", "a (2).txt"]);
  assert.equal(await freeName("a.txt", (n) => Promise.resolve(taken.has(n))), "a (3).txt");
  const err = await errorOf(freeName("a.txt", () => Promise.resolve(true)));
  assert.equal(err.status, 409);
  assert.equal(err.code, "file_exists");
});

Deno.test("placeUpload: each mode onto a file, and a folder is never replaced", async () => {
  const { stat } = statOf({ "/d/a.txt": "file", "/d/a (1).txt": "file", "/d/sub": "directory" });
  assert.equal(await placeUpload("/d", "new.txt", "fail", stat), "/d/new.txt");
  assert.equal(await placeUpload("/d", "a.txt", "overwrite", stat), "/d/a.txt");
  assert.equal(await placeUpload("/d", "a.txt", "rename", stat), "/d/a (2).txt");
  const failed = await errorOf(placeUpload("/d", "a.txt", "fail", stat));
  assert.deepEqual([failed.status, failed.code], [409, "file_exists"]);
  assert.deepEqual(failed.details, { path: "/d/a.txt", name: "a.txt" });
  const onFolder = await errorOf(placeUpload("/d", "sub", "overwrite", stat));
  assert.deepEqual([onFolder.status, onFolder.code], [409, "target_exists"]);
  assert.equal(await placeUpload("/d", "sub", "rename", stat), "/d/sub (1)");
  const root = statOf({ "/x": "file" });
  assert.equal(await placeUpload("/", "x", "rename", root.stat), "/x (1)");
});

Deno.test("existingIn: each name asked once, in batches, and only what exists returned", async () => {
  const { stat, asked } = statOf({ "/d/a": "file", "/d/z": "directory", "/top": "file" });
  const names = ["a", "a", "z", ...Array.from({ length: 40 }, (_, i) => `n${i}`)];
  const found = await existingIn("/d", names, stat);
  assert.deepEqual(found.map((e) => [e.path, e.type]), [["/d/a", "file"], ["/d/z", "directory"]]);
  assert.equal(asked.length, 42, "duplicates asked once");
  assert.deepEqual((await existingIn("/", ["top"], stat)).map((e) => e.path), ["/top"]);
});

Deno.test("limitParts: passes up to max bytes and throws 413 past it", async () => {
  async function* parts(...sizes: number[]) {
    for (const n of sizes) yield new Uint8Array(n);
  }
  const ok = await Array.fromAsync(limitParts(parts(4, 6), 10));
  assert.deepEqual(ok.map((p) => p.byteLength), [4, 6]);
  const seen: number[] = [];
  const err = await errorOf((async () => {
    for await (const p of limitParts(parts(4, 6, 1, 100), 10)) seen.push(p.byteLength);
  })());
  assert.deepEqual([err.status, err.code], [413, "file_too_large"]);
  assert.deepEqual(seen, [4, 6], "nothing past the limit is passed on");
});
