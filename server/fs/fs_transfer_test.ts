/**
 * Copies, moves and renames between real local stores (one app's default storage and a second
 * local storage config), as the explorer's FsService and copy tasks run them.
 */
import assert from "node:assert/strict";
import { copyPath, movePath, renamePath, type TransferDeps } from "./fs_transfer.ts";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { adminAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";
import type { IndexTarget, SearchHooks } from "../search/search_types.ts";
import type { Resolved } from "../services/mounts.ts";

const ADMIN = adminAuth();

/** Two mounts, /a on the default storage and /b on a second local one, and deps over them. */
async function setup(t: TestApp) {
  await t.createMount("/a", { name: "a" });
  const other = await t.createLocalConfig("second");
  await t.createMount("/b", { name: "b", storage_config_id: other.id });
  await t.createMount("/a2", { name: "a2" });
  // What the transfer tells the app's real search index, in order (noted, then passed on).
  const told: string[] = [];
  // The transfer passes the ends it resolved, so each target carries its virtual path.
  const pathOf = (target: IndexTarget) => (target as Resolved).path;
  const index = t.services.search;
  const search: SearchHooks = {
    pathWritten: (target, info) => {
      told.push(`+${pathOf(target)}`);
      return index.pathWritten(target, info);
    },
    pathRemoved: (target) => {
      told.push(`-${pathOf(target)}`);
      return index.pathRemoved(target);
    },
  };
  const { mounts, storageConfigs } = t.services;
  const deps: TransferDeps = {
    resolve: (path, auth) => mounts.resolve(path, auth),
    driverOf: async (r) =>
      await storageConfigs.mountDriverFor(
        await storageConfigs.getRecord(r.mount.storage_config_id),
      ),
    search,
  };
  const write = (path: string, text: string) =>
    t.services.fs.upload(
      path.slice(0, path.lastIndexOf("/")),
      path.slice(path.lastIndexOf("/") + 1),
      new Blob([text]).stream(),
      ADMIN,
    );
  const read = async (path: string) => {
    const entry = await t.services.fs.stat(path, ADMIN);
    if (!entry) return null;
    if (entry.type === "directory") return "<dir>";
    const { object } = await t.services.fs.download(path, ADMIN);
    return await new Response(object.body).text();
  };
  return { deps, told, write, read };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return err.code;
}

Deno.test("transfer: a folder copies across stores whole, empty sub-folders too", async () => {
  await using t = await createTestApp();
  const s = await setup(t);
  await s.write("/a/d/one.txt", "1");
  await s.write("/a/d/sub/two.txt", "2");
  await t.services.fs.mkdir("/a/d/empty", ADMIN);
  assert.deepEqual(await copyPath(s.deps, "/a/d", "/b/d", ADMIN), { path: "/b/d", copied: 2 });
  assert.equal(await s.read("/b/d/one.txt"), "1");
  assert.equal(await s.read("/b/d/sub/two.txt"), "2");
  assert.equal(await s.read("/b/d/empty"), "<dir>");
  assert.equal(await s.read("/a/d/one.txt"), "1", "the source stays");
  assert.deepEqual(s.told, ["+/b/d"]);
  const found = await t.services.search.search(
    { q: "two.txt", scope: "global", limit: 10, offset: 0 },
    ADMIN,
  );
  // /a2 shares /a's storage, so the source shows through both; the copy is indexed on /b.
  assert.deepEqual(found.items.map((i) => i.path).sort(), [
    "/a/d/sub/two.txt",
    "/a2/d/sub/two.txt",
    "/b/d/sub/two.txt",
  ]);
  assert.deepEqual(await copyPath(s.deps, "/a/d", "/a2/shallow", ADMIN, { shallow: true }), {
    path: "/a2/shallow",
    copied: 0,
  });
  assert.deepEqual((await t.services.fs.list("/a2/shallow", ADMIN)).items, []);
});

Deno.test("transfer: a move across stores copies then deletes; within a store it moves", async () => {
  await using t = await createTestApp();
  const s = await setup(t);
  await s.write("/a/f.txt", "file");
  await s.write("/a/d/x.txt", "x");
  await t.services.fs.mkdir("/a/d/empty", ADMIN);
  assert.deepEqual(await movePath(s.deps, "/a/f.txt", "/b/f.txt", ADMIN), {
    path: "/b/f.txt",
    moved: 1,
  });
  assert.deepEqual([await s.read("/a/f.txt"), await s.read("/b/f.txt")], [null, "file"]);
  // /a and /a2 show the same store (its root): the store moves the folder's objects.
  assert.deepEqual(await movePath(s.deps, "/a/d", "/a2/e", ADMIN), { path: "/a2/e", moved: 1 });
  assert.deepEqual([await s.read("/a/d"), await s.read("/a2/e/x.txt")], [null, "x"]);
  assert.equal(await s.read("/a/e/empty"), "<dir>", "empty folders move too");
  assert.deepEqual(s.told, ["+/b/f.txt", "-/a/f.txt", "-/a/d", "+/a2/e"]);
});

Deno.test("transfer: a rename stays in its mount and moves a folder's every file", async () => {
  await using t = await createTestApp();
  const s = await setup(t);
  for (let i = 0; i < 5; i++) await s.write(`/a/d/f${i}.txt`, `${i}`);
  assert.deepEqual(await renamePath(s.deps, "/a/d", "/a/e", ADMIN), { path: "/a/e", moved: 5 });
  assert.equal(await s.read("/a/e/f4.txt"), "4");
  assert.equal(await s.read("/a/d"), null);
  assert.deepEqual(await renamePath(s.deps, "/a/e/f0.txt", "/a/g.txt", ADMIN), {
    path: "/a/g.txt",
    moved: 1,
  });
  assert.equal(
    await codeOf(renamePath(s.deps, "/a/g.txt", "/b/g.txt", ADMIN)),
    "cross_mount_rename",
  );
});

Deno.test("transfer: refusals leave both ends as they were", async () => {
  await using t = await createTestApp();
  const s = await setup(t);
  await s.write("/a/d/x.txt", "x");
  await s.write("/b/taken.txt", "taken");
  await t.services.fs.mkdir("/b/folder", ADMIN);
  for (const run of [copyPath, movePath, renamePath]) {
    assert.equal(await codeOf(run(s.deps, "/a/d", "/a/d/inner", ADMIN)), "rename_into_itself");
    assert.equal(await codeOf(run(s.deps, "/a/none", "/a/new", ADMIN)), "file_not_found");
    assert.equal(await codeOf(run(s.deps, "/a", "/a2/x", ADMIN)), "storage_path_invalid");
  }
  for (const run of [copyPath, movePath]) {
    assert.equal(await codeOf(run(s.deps, "/a/d/x.txt", "/b/taken.txt", ADMIN)), "target_exists");
    assert.equal(await codeOf(run(s.deps, "/a/d", "/b/folder", ADMIN)), "target_exists");
  }
  assert.equal(await s.read("/b/taken.txt"), "taken");
  assert.equal(await s.read("/a/d/x.txt"), "x");
  assert.deepEqual(s.told, []);
});
