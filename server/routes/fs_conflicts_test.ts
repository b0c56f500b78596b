/**
 * Same-name files in the explorer: an upload or a copy onto an existing file overwrites it,
 * skips it or keeps both (a numbered name) as asked, "fail" answers 409 file_exists, and the
 * file_overwrite_mode setting decides for clients that do not say; a folder that exists is
 * not "created".
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { mountLocal, readMountText, runTask } from "../../tests/helpers/fs_api.ts";

async function upload(t: TestApp, dir: string, name: string, body: string, mode?: string) {
  const fd = new FormData();
  fd.set("path", dir);
  if (mode) fd.set("on_conflict", mode);
  fd.set("file", new Blob([body]), name);
  const res = await t.request("/api/fs/upload", {
    method: "POST",
    auth: await t.adminAuth(),
    lang: "en-US",
    body: fd,
  });
  return { status: res.status, body: await res.json() };
}

async function names(t: TestApp, path: string): Promise<string[]> {
  const res = await t.request(`/api/fs/list?path=${encodeURIComponent(path)}&refresh=true`, {
    auth: await t.adminAuth(),
  });
  return (await res.json()).data.items.map((i: { name: string }) => i.name).sort();
}

Deno.test("uploads onto an existing file: fail is 409, rename keeps both, overwrite replaces", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/m");
  assert.equal((await upload(t, "/m", "a.txt", "one", "fail")).status, 201);

  const refused = await upload(t, "/m", "a.txt", "two", "fail");
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error, "file_exists");
  assert.equal(refused.body.message, 'A file named "a.txt" already exists here');
  assert.equal(await readMountText(t, "/m/a.txt"), "one", "nothing was overwritten");

  const kept = await upload(t, "/m", "a.txt", "three", "rename");
  assert.equal(kept.status, 201);
  assert.equal(kept.body.data.name, "a (1).txt");
  assert.equal((await upload(t, "/m", "a.txt", "four", "rename")).body.data.name, "a (2).txt");
  assert.equal((await upload(t, "/m", "a.txt", "five", "overwrite")).status, 201);
  assert.equal(await readMountText(t, "/m/a.txt"), "five");
  assert.deepEqual(await names(t, "/m"), ["a (1).txt", "a (2).txt", "a.txt"]);

  // Presigned and multipart uploads place the file the same way.
  const admin = await t.adminAuth();
  const presign = await t.request("/api/fs/presign", {
    method: "POST",
    auth: admin,
    json: { path: "/m/a.txt", size: 3, on_conflict: "rename" },
  });
  assert.equal((await presign.json()).data.path, "/m/a (3).txt");
  const init = await t.request("/api/fs/multipart/init", {
    method: "POST",
    auth: admin,
    json: { path: "/m/a.txt", size: 3, on_conflict: "fail" },
  });
  assert.equal(init.status, 409);
  assert.equal((await init.json()).error, "file_exists");
});

Deno.test("clients that do not say follow the file_overwrite_mode setting", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/m");
  await upload(t, "/m", "b.txt", "one");
  assert.equal((await upload(t, "/m", "b.txt", "two")).status, 201);
  assert.equal(await readMountText(t, "/m/b.txt"), "two", "overwrite by default");
  const set = await t.request("/api/admin/settings/group/1", {
    method: "PUT",
    auth: await t.adminAuth(),
    json: { file_overwrite_mode: "rename" },
  });
  assert.equal(set.status, 200);
  assert.equal((await upload(t, "/m", "b.txt", "three")).body.data.name, "b (1).txt");
});

Deno.test("fs/exists names what a folder holds; mkdir of an existing folder says it exists", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/m");
  await upload(t, "/m", "c.txt", "c");
  const admin = await t.adminAuth();
  const mk = (path: string) =>
    t.request("/api/fs/mkdir", {
      method: "POST",
      auth: admin,
      lang: "en-US",
      json: { path },
    });
  assert.equal((await mk("/m/docs")).status, 201);
  const again = await mk("/m/docs");
  assert.equal(again.status, 409);
  const body = await again.json();
  assert.equal(body.error, "folder_exists");
  assert.equal(body.message, 'A folder named "docs" already exists here');

  const exists = await t.request("/api/fs/exists", {
    method: "POST",
    auth: admin,
    json: { path: "/m", names: ["c.txt", "docs", "new.txt"] },
  });
  const found = (await exists.json()).data.existing;
  assert.deepEqual(found.map((e: { name: string; type: string }) => [e.name, e.type]), [
    ["c.txt", "file"],
    ["docs", "directory"],
  ]);
});

Deno.test("copies onto existing files skip, keep both or overwrite as asked", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/src");
  // Mounts of one config share its keys: the target gets a storage of its own.
  const other = await t.createLocalConfig("other");
  await mountLocal(t, "/dst", { storage_config_id: other.id });
  await upload(t, "/src", "x.txt", "new");
  await upload(t, "/dst", "x.txt", "old");
  const copy = (on_conflict: string) =>
    runTask(t, "/api/fs/batch-copy", {
      items: [{ sourcePath: "/src/x.txt", targetPath: "/dst/x.txt" }],
      on_conflict,
    });
  const skipped = await copy("skip");
  assert.equal(skipped.skipped_count, 1);
  assert.equal(await readMountText(t, "/dst/x.txt"), "old");
  const renamed = await copy("rename");
  assert.equal(renamed.success_count, 1);
  assert.equal(await readMountText(t, "/dst/x (1).txt"), "new");
  assert.equal(await readMountText(t, "/dst/x.txt"), "old");
  await copy("overwrite");
  assert.equal(await readMountText(t, "/dst/x.txt"), "new");
  assert.deepEqual(await names(t, "/dst"), ["x (1).txt", "x.txt"]);
});
