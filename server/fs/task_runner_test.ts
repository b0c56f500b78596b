/** The background task runner on a real app's KV and local store: resume, leases, actors. */
import assert from "node:assert/strict";
import { TaskRunner } from "./task_runner.ts";
import { type TaskRecord, TaskRepo } from "./task_repo.ts";
import { keys } from "../kv/keys.ts";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { taskSettled } from "../../tests/helpers/tasks.ts";
import { taskRecord } from "../../tests/helpers/records.ts";
import { adminAuth } from "../services/auth.ts";

const ADMIN = adminAuth();

function task(id: string, over: Partial<TaskRecord>): TaskRecord {
  return taskRecord({ id, on_conflict: "overwrite", ...over });
}

/** A runner of its own (another instance's, as after a restart) over the app's services. */
function runnerOf(t: TestApp) {
  const s = t.services;
  return new TaskRunner(new TaskRepo(t.kv), s.mounts, s.storageConfigs, s.apiKeys, undefined, {
    fs: s.fs,
    allowLoopbackFetch: false,
    maxUploadBytes: () => Promise.resolve(1 << 20),
  });
}

async function write(t: TestApp, path: string, text: string) {
  const at = path.lastIndexOf("/");
  await t.services.fs.upload(
    path.slice(0, at),
    path.slice(at + 1),
    new Blob([text]).stream(),
    ADMIN,
  );
}

const names = async (t: TestApp, dir: string) =>
  (await t.services.fs.list(dir, ADMIN)).items.map((e) => e.name);

Deno.test("runner: a task a dead instance left running resumes where its record stopped", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  for (const p of ["/m/one/a", "/m/two/a", "/m/two/b", "/m/two/c"]) await write(t, p, p);
  const repo = new TaskRepo(t.kv);
  // Item 0 was done, item 1 was done up to two/a: only two/b and two/c are left.
  await repo.create(task("01A", {
    status: "running",
    items: [
      { sourcePath: "/m/one", targetPath: "/m/out1" },
      { sourcePath: "/m/two", targetPath: "/m/out2" },
    ],
    next_item: 1,
    last_key: "two/a",
    success_count: 2,
  }));
  runnerOf(t).kick();
  const done = await taskSettled(t.kv, "01A");
  assert.equal(done.status, "completed");
  assert.deepEqual([done.total, done.success_count, done.next_item], [4, 4, 2]);
  assert.equal(done.total_counted, true);
  assert.deepEqual(await names(t, "/m"), ["one", "out2", "two"], "item 0 is not run again");
  assert.deepEqual(await names(t, "/m/out2"), ["b", "c"]);
  assert.equal((await t.kv.get(keys.taskLeases("01A"))).value, null, "lease released");
});

Deno.test("runner: a task another live instance holds is left to it", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await write(t, "/m/a", "a");
  const repo = new TaskRepo(t.kv);
  const item = { sourcePath: "/m/a", targetPath: "/m/b" };
  await repo.create(task("01A", { items: [item] }));
  await repo.lease("01A", "other-instance", 60_000);
  await repo.create(task("01B", { items: [{ sourcePath: "/m/a", targetPath: "/m/c" }] }));
  runnerOf(t).kick();
  // One poll takes the tasks in id order: when 01B is done, 01A was passed over.
  assert.equal((await taskSettled(t.kv, "01B")).status, "completed");
  assert.equal((await repo.get("01A")).value?.status, "pending");
  assert.equal(await t.services.fs.stat("/m/b", ADMIN), null);
});

Deno.test("runner: a task whose API key is gone fails; one with only failures fails", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const repo = new TaskRepo(t.kv);
  await repo.create(task("01A", {
    actor: { type: "apikey", id: "01DELETEDKEY" },
    items: [{ sourcePath: "/m/a", targetPath: "/m/b" }],
  }));
  await repo.create(task("01B", {
    type: "delete",
    items: [{ sourcePath: "/m/none", targetPath: "" }],
    total: 1,
    total_counted: true,
  }));
  runnerOf(t).kick();
  const noKey = await taskSettled(t.kv, "01A");
  assert.deepEqual([noKey.status, noKey.error], ["failed", "api_key_invalid"]);
  const noFile = await taskSettled(t.kv, "01B");
  assert.deepEqual([noFile.status, noFile.failed_count], ["failed", 1]);
});

Deno.test("runner: two instances kicked at once run a task once", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  for (let i = 0; i < 5; i++) await write(t, `/m/src/${i}`, `${i}`);
  await new TaskRepo(t.kv).create(task("01A", {
    items: [{ sourcePath: "/m/src", targetPath: "/m/dst" }],
    on_conflict: "rename",
  }));
  const [a, b] = [runnerOf(t), runnerOf(t)];
  a.kick();
  b.kick();
  const done = await taskSettled(t.kv, "01A");
  assert.deepEqual([done.status, done.success_count], ["completed", 5]);
  // A second run would have made "0 (1)" and the like (rename keeps both).
  assert.deepEqual(await names(t, "/m/dst"), ["0", "1", "2", "3", "4"]);
});
