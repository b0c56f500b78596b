/** The per-item work of copy tasks, on a real app's mounts and local stores. */
import assert from "node:assert/strict";
import { copyItem, countFiles, recordFailure, type TaskSave } from "./task_copy.ts";
import { type TaskRecord, TaskRepo } from "./task_repo.ts";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { taskRecord } from "../../tests/helpers/records.ts";
import { adminAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";

const ADMIN = adminAuth();

function task(over: Partial<TaskRecord> = {}): TaskRecord {
  return taskRecord({ status: "running", total_counted: true, ...over });
}

/** A copy run of one item: the record lives in the task repo; `save` patches it there. */
async function run(t: TestApp, from: string, to: string, over: Partial<TaskRecord> = {}) {
  const repo = new TaskRepo(t.kv);
  const id = crypto.randomUUID();
  await repo.create(task({ id, ...over }));
  let rec = (await repo.get(id)) as Deno.KvEntry<TaskRecord>;
  const save: TaskSave = async (patch) => {
    if (!await repo.update({ ...rec.value, ...patch }, rec.versionstamp)) return false;
    rec = (await repo.get(id)) as Deno.KvEntry<TaskRecord>;
    return true;
  };
  const deps = { repo, mounts: t.services.mounts, storage: t.services.storageConfigs };
  const ok = await copyItem(
    deps,
    { sourcePath: from, targetPath: to },
    ADMIN,
    () => rec.value,
    save,
  );
  return { ok, rec: rec.value };
}

async function write(t: TestApp, dir: string, name: string, text: string) {
  await t.services.fs.upload(dir, name, new Blob([text]).stream(), ADMIN);
}

async function names(t: TestApp, dir: string): Promise<string[]> {
  return (await t.services.fs.list(dir, ADMIN)).items.map((e) => e.name);
}

Deno.test("copy item: a folder into its own sub-folder never copies its own output", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await write(t, "/m/d", "a.txt", "a");
  await write(t, "/m/d/s", "b.txt", "b");
  const { ok, rec } = await run(t, "/m/d", "/m/d/s/copy");
  assert.equal(ok, true);
  assert.equal(rec.success_count, 2);
  assert.deepEqual(await names(t, "/m/d/s/copy"), ["s", "a.txt"]);
  assert.deepEqual(await names(t, "/m/d/s/copy/s"), ["b.txt"]);
});

Deno.test("copy item: resumes after last_key; skip and rename keep files already there", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  for (const n of ["a", "b", "c"]) await write(t, "/m/src", `${n}.txt`, n);
  await write(t, "/m/dst", "c.txt", "old");
  const skipped = await run(t, "/m/src", "/m/dst", { last_key: "src/a.txt", on_conflict: "skip" });
  assert.deepEqual(
    [skipped.rec.success_count, skipped.rec.skipped_count, skipped.rec.last_key],
    [1, 1, "src/c.txt"],
  );
  assert.deepEqual(await names(t, "/m/dst"), ["b.txt", "c.txt"], "a.txt was done before");
});

Deno.test("copy item: rename keeps both; a cancelled task stops before the next file", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await write(t, "/m", "f.txt", "new");
  await write(t, "/m/dst", "f.txt", "old");
  const renamed = await run(t, "/m/f.txt", "/m/dst/f.txt", { on_conflict: "rename" });
  assert.equal(renamed.rec.success_count, 1);
  assert.deepEqual(await names(t, "/m/dst"), ["f (1).txt", "f.txt"]);
  const cancelled = await run(t, "/m/f.txt", "/m/other.txt", { status: "cancelled" });
  assert.equal(cancelled.ok, false);
  assert.equal(await t.services.fs.stat("/m/other.txt", ADMIN), null);
});

Deno.test("copy item: across stores the bytes stream; a missing source is a recorded failure", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const other = await t.createLocalConfig("second");
  await t.createMount("/o", { name: "o", storage_config_id: other.id });
  await write(t, "/m/d", "x.txt", "cross");
  assert.equal((await run(t, "/m/d", "/o/d")).rec.success_count, 1);
  const { object } = await t.services.fs.download("/o/d/x.txt", ADMIN);
  assert.equal(await new Response(object.body).text(), "cross");
  const missing = await run(t, "/m/none", "/o/none");
  assert.equal(missing.ok, true, "a failure is recorded, the task goes on");
  assert.deepEqual(missing.rec.errors, [{ path: "/m/none", error: "file_not_found" }]);
  const unknown = await run(t, "/nomount/x", "/o/x");
  assert.deepEqual(unknown.rec.errors.map((e) => e.path), ["/nomount/x"]);
});

Deno.test("countFiles: a file or a missing path is 1, a folder its files", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  for (let i = 0; i < 3; i++) await write(t, "/m/d/s", `${i}`, "x");
  await write(t, "/m/d", "top", "x");
  const count = (p: string) =>
    countFiles(
      t.services.storageConfigs,
      t.services.mounts,
      { sourcePath: p, targetPath: "" },
      ADMIN,
    );
  assert.deepEqual(
    [await count("/m/d"), await count("/m/d/top"), await count("/m/none"), await count("/x/y")],
    [4, 1, 1, 1],
  );
});

Deno.test("recordFailure keeps the last 50 errors and the resume key", async () => {
  let saved: Partial<TaskRecord> = {};
  const save: TaskSave = (patch) => {
    saved = patch;
    return Promise.resolve(true);
  };
  const errors = Array.from({ length: 50 }, (_, i) => ({ path: `/p${i}`, error: "x" }));
  await recordFailure(
    task({ failed_count: 50, errors }),
    save,
    "/new",
    new AppError("conflict", 409),
    "k",
  );
  assert.equal(saved.failed_count, 51);
  assert.equal(saved.errors?.length, 50);
  assert.deepEqual(saved.errors?.at(-1), { path: "/new", error: "conflict" });
  assert.equal(saved.errors?.[0].path, "/p1");
  assert.equal(saved.last_key, "k");
});
