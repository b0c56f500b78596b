/**
 * FsService on a real app's services (temporary KV, local storage): paths, folders, uploads
 * with size limits, deletes, stat and listings through the directory cache, and base paths.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { adminAuth, type Auth, keyAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";
import { Permission } from "../../shared/permissions.ts";
import type { ApiKeyRecord } from "../kv/api_key_repo.ts";

const ADMIN = adminAuth();

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new Blob([text]).stream();
}

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return err;
}

async function text(t: TestApp, path: string, auth: Auth = ADMIN): Promise<string> {
  const { object } = await t.services.fs.download(path, auth);
  return await new Response(object.body).text();
}

/** Sets the max upload size to its least, 1 KiB. */
async function limitUploadsTo1KiB(t: TestApp) {
  await t.services.settings.updateGroup(1, { max_upload_size: 1, max_upload_size_unit: "KB" });
}

function keyUnder(basePath: string): Auth {
  const rec: ApiKeyRecord = {
    id: "01KEY",
    name: "k",
    key_hash: "h",
    key_prefix: "ck_",
    permissions: Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD,
    role: "general",
    basic_path: basePath,
    is_guest: false,
    created_at: new Date().toISOString(),
    expires_at: null,
  };
  return keyAuth(rec);
}

Deno.test("fs: upload, stat, list, download, update and remove a file", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const fs = t.services.fs;
  const entry = await fs.upload("/m/docs", "a.md", streamOf("hello"), ADMIN);
  assert.deepEqual([entry.path, entry.type, entry.size, entry.mimetype], [
    "/m/docs/a.md",
    "file",
    5,
    "text/markdown",
  ]);
  assert.equal(await text(t, "/m/docs/a.md"), "hello");
  assert.equal((await fs.stat("/m/docs", ADMIN))?.type, "directory");
  assert.equal(await fs.stat("/m/nope", ADMIN), null);
  assert.equal((await fs.stat("/m", ADMIN))?.mount_id !== undefined, true, "a mount root");
  const page = await fs.list("/m/docs", ADMIN);
  assert.deepEqual(page.items.map((e) => e.name), ["a.md"]);
  assert.equal((await fs.update("/m/docs/a.md", "changed!", ADMIN)).size, 8);
  assert.equal(await text(t, "/m/docs/a.md"), "changed!");
  const removed = await fs.remove(["/m/docs/a.md", "/m/docs/a.md", "/m/../x"], ADMIN);
  assert.equal(removed.deleted, 1);
  assert.deepEqual(removed.failed.map((f) => f.error), ["file_not_found", "storage_path_invalid"]);
});

Deno.test("fs: virtual folders above mounts; a root listing has every mount", async () => {
  await using t = await createTestApp();
  await t.createMount("/a/b", { name: "b" });
  await t.createMount("/c", { name: "c" });
  const root = await t.services.fs.list("/", ADMIN);
  assert.equal(root.is_virtual, true);
  assert.deepEqual(root.items.map((e) => e.path), ["/a", "/c"]);
  assert.deepEqual((await t.services.fs.list("/a", ADMIN)).items.map((e) => e.path), ["/a/b"]);
  assert.equal((await t.services.fs.stat("/a", ADMIN))?.type, "directory");
  const outside = await errorOf(t.services.fs.list("/nowhere", ADMIN));
  assert.equal(outside.status, 404);
});

Deno.test("fs: mkdir makes an empty folder once; a file of that name is target_exists", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const fs = t.services.fs;
  assert.equal((await fs.mkdir("/m/new", ADMIN)).type, "directory");
  assert.deepEqual((await fs.list("/m", ADMIN)).items.map((e) => [e.name, e.type]), [
    ["new", "directory"],
  ]);
  assert.equal((await errorOf(fs.mkdir("/m/new", ADMIN))).code, "folder_exists");
  await fs.upload("/m", "f", streamOf("x"), ADMIN);
  assert.equal((await errorOf(fs.mkdir("/m/f", ADMIN))).code, "target_exists");
  assert.equal((await errorOf(fs.mkdir("/m", ADMIN))).code, "storage_path_invalid");
  await fs.upload("/m/new", "inside.txt", streamOf("x"), ADMIN);
  assert.equal((await fs.remove(["/m/new"], ADMIN)).deleted, 1, "a folder goes whole");
  assert.equal(await fs.stat("/m/new/inside.txt", ADMIN), null);
});

Deno.test("fs: uploads keep to the size limit and the conflict mode, bad names are 400", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await limitUploadsTo1KiB(t);
  const fs = t.services.fs;
  assert.equal(await fs.checkUploadSize(1024), 1024);
  assert.equal((await errorOf(fs.checkUploadSize(1025))).code, "file_too_large");
  const tooBig = await errorOf(fs.upload("/m", "big", streamOf("x".repeat(1025)), ADMIN));
  assert.deepEqual([tooBig.status, tooBig.code], [413, "file_too_large"]);
  assert.equal(await fs.stat("/m/big", ADMIN), null, "nothing half-written");
  await fs.upload("/m", "a.txt", streamOf("one"), ADMIN);
  const kept = await fs.upload("/m", "a.txt", streamOf("two"), ADMIN, undefined, "rename");
  assert.equal(kept.path, "/m/a (1).txt");
  const failed = await errorOf(fs.upload("/m", "a.txt", streamOf("3"), ADMIN, undefined, "fail"));
  assert.equal(failed.code, "file_exists");
  assert.equal(await text(t, "/m/a.txt"), "one");
  for (const bad of ["..", "a/b", ""]) {
    assert.equal((await errorOf(fs.upload("/m", bad, streamOf("x"), ADMIN))).status, 400, bad);
  }
  assert.deepEqual(
    (await fs.existing("/m", ["a.txt", "zz", "a (1).txt"], ADMIN)).map((e) => e.name),
    [
      "a.txt",
      "a (1).txt",
    ],
  );
});

Deno.test("fs: a key sees only its base path", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const fs = t.services.fs;
  await fs.upload("/m/team", "t.txt", streamOf("team"), ADMIN);
  await fs.upload("/m/private", "p.txt", streamOf("secret"), ADMIN);
  const key = keyUnder("/m/team");
  assert.equal(await text(t, "/m/team/t.txt", key), "team");
  const denied = await errorOf(t.services.fs.download("/m/private/p.txt", key));
  assert.equal(denied.status, 403);
  assert.equal((await errorOf(fs.upload("/m/private", "x", streamOf("x"), key))).status, 403);
  assert.equal((await fs.remove(["/m/private/p.txt"], key)).deleted, 0);
  assert.equal(await text(t, "/m/private/p.txt"), "secret");
});

Deno.test("fs: listings are cached per mount TTL and every write shows at once", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m", cache_ttl: 300 });
  const fs = t.services.fs;
  await fs.upload("/m", "a", streamOf("a"), ADMIN);
  assert.deepEqual((await fs.list("/m", ADMIN)).items.map((e) => e.name), ["a"]);
  await fs.upload("/m", "b", streamOf("b"), ADMIN);
  await fs.mkdir("/m/c", ADMIN);
  assert.deepEqual((await fs.list("/m", ADMIN)).items.map((e) => e.name), ["c", "a", "b"]);
  await fs.remove(["/m/a"], ADMIN);
  await fs.rename("/m/b", "/m/c/b", ADMIN);
  assert.deepEqual((await fs.list("/m", ADMIN)).items.map((e) => e.name), ["c"]);
  assert.deepEqual((await fs.list("/m/c", ADMIN)).items.map((e) => e.name), ["b"]);
});

Deno.test("fs: a multipart upload writes its parts in order and keeps to the size limit", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const fs = t.services.fs;
  async function* parts(...texts: string[]) {
    for (const s of texts) yield new TextEncoder().encode(s);
  }
  const entry = await fs.uploadMultipart("/m", "mp.txt", parts("ab"), ADMIN);
  assert.equal(entry.size, 2);
  assert.equal(await text(t, "/m/mp.txt"), "ab");
  await limitUploadsTo1KiB(t);
  const half = "x".repeat(600);
  const err = await errorOf(fs.uploadMultipart("/m", "big.txt", parts(half, half), ADMIN));
  assert.equal(err.code, "file_too_large");
  assert.equal(await fs.stat("/m/big.txt", ADMIN), null);
});
