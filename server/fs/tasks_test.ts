/** TaskService on a real app's services: queueing, checks, owners, retry and clearing. */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { taskSettled } from "../../tests/helpers/tasks.ts";
import { adminAuth, type Auth, keyAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";
import { ALL_PERMISSIONS } from "../../shared/permissions.ts";

const ADMIN = adminAuth();

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return `${err.status} ${err.code}`;
}

async function write(t: TestApp, dir: string, name: string, text: string) {
  await t.services.fs.upload(dir, name, new Blob([text]).stream(), ADMIN);
}

async function read(t: TestApp, path: string): Promise<string | null> {
  if (!await t.services.fs.stat(path, ADMIN)) return null;
  const { object } = await t.services.fs.download(path, ADMIN);
  return await new Response(object.body).text();
}

/** An API key's Auth, made through the real key service. */
async function keyOf(t: TestApp, name: string): Promise<Auth> {
  const { id } = await t.createKey({ mount_view: true, mount_copy: true, mount_delete: true }, {
    name,
  });
  const rec = await t.services.apiKeys.getRecord(id);
  assert.ok(rec && rec.permissions !== ALL_PERMISSIONS);
  return keyAuth(rec);
}

Deno.test("tasks: a copy runs in the background to 100%; list is newest first", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await write(t, "/m/src", "a.txt", "a");
  await write(t, "/m/src/sub", "b.txt", "b");
  const view = await t.services.tasks.createCopy(
    [{ sourcePath: "/m/src", targetPath: "/m/dst" }],
    "overwrite",
    ADMIN,
  );
  assert.deepEqual([view.type, view.status, view.progress], ["copy", "pending", 0]);
  const done = await taskSettled(t.kv, view.id);
  assert.equal(done.status, "completed");
  assert.deepEqual([done.success_count, done.total], [2, 2]);
  assert.equal((await t.services.tasks.get(view.id, ADMIN)).progress, 100);
  assert.equal(await read(t, "/m/dst/sub/b.txt"), "b");
  const second = await t.services.tasks.createDelete(["/m/dst"], ADMIN);
  await taskSettled(t.kv, second.id);
  assert.equal(await read(t, "/m/dst/a.txt"), null);
  assert.deepEqual((await t.services.tasks.list(ADMIN)).map((v) => v.id), [second.id, view.id]);
});

Deno.test("tasks: bad requests are refused before anything is queued", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const tasks = t.services.tasks;
  const anon: Auth = { type: "none" };
  assert.equal(await codeOf(tasks.createDelete(["/m/a"], anon)), "401 unauthorized");
  assert.equal(
    await codeOf(tasks.createCopy([{ sourcePath: "/m/a", targetPath: "/m/a" }], "skip", ADMIN)),
    "400 copy_into_itself",
  );
  assert.equal(
    await codeOf(tasks.createCopy([{ sourcePath: "/m", targetPath: "/m/b" }], "skip", ADMIN)),
    "400 storage_path_invalid",
  );
  assert.equal(await codeOf(tasks.createDelete(["/m"], ADMIN)), "400 storage_path_invalid");
  for (const url of ["not a url", "ftp://example.com/x", "file:///etc/passwd"]) {
    assert.equal(await codeOf(tasks.createDownload([url], "/m", ADMIN)), "400 url_invalid", url);
  }
  const many = Array.from({ length: 1000 }, (_, i) => `/m/${"x".repeat(60)}-${i}`);
  assert.equal(await codeOf(tasks.createDelete(many, ADMIN)), "400 too_many_items");
  assert.deepEqual(await tasks.list(ADMIN), []);
});

Deno.test("tasks: a key sees and manages only its own tasks; the admin sees all", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const [one, two] = [await keyOf(t, "one"), await keyOf(t, "two")];
  const mine = await t.services.tasks.createDelete(["/m/none"], one);
  await taskSettled(t.kv, mine.id);
  assert.deepEqual((await t.services.tasks.list(one)).map((v) => v.id), [mine.id]);
  assert.deepEqual(await t.services.tasks.list(two), []);
  assert.equal((await t.services.tasks.list(ADMIN)).length, 1);
  assert.equal(await codeOf(t.services.tasks.get(mine.id, two)), "403 forbidden");
  assert.equal(await codeOf(t.services.tasks.cancel(mine.id, two)), "403 forbidden");
  assert.equal(await codeOf(t.services.tasks.get("nope", one)), "404 task_not_found");
  assert.deepEqual(await t.services.tasks.clearFinished(two), { cleared: 0 });
  assert.deepEqual(await t.services.tasks.clearFinished(one), { cleared: 1 });
  assert.deepEqual(await t.services.tasks.list(ADMIN), []);
});

Deno.test("tasks: a failed task is retried from the start; finished ones are not", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const view = await t.services.tasks.createDelete(["/m/late.txt"], ADMIN);
  const failed = await taskSettled(t.kv, view.id);
  assert.equal(failed.status, "failed");
  assert.deepEqual(failed.errors, [{ path: "/m/late.txt", error: "file_not_found" }]);
  assert.equal((await t.services.tasks.cancel(view.id, ADMIN)).status, "failed", "no-op");
  await write(t, "/m", "late.txt", "now here");
  const again = await t.services.tasks.retry(view.id, ADMIN);
  assert.deepEqual([again.status, again.failed_count, again.errors], ["pending", 0, []]);
  const done = await taskSettled(t.kv, view.id);
  assert.deepEqual([done.status, done.success_count], ["completed", 1]);
  assert.equal(await read(t, "/m/late.txt"), null);
  assert.equal(await codeOf(t.services.tasks.retry(view.id, ADMIN)), "400 task_not_retryable");
});
