import assert from "node:assert/strict";
import { type TaskRecord, TaskRepo } from "./task_repo.ts";
import { keys } from "../kv/keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";
import { taskRecord } from "../../tests/helpers/records.ts";

function task(id: string): TaskRecord {
  return taskRecord({
    id,
    type: "delete",
    total: 1,
    items: [{ sourcePath: "/m/a", targetPath: "" }],
  });
}

Deno.test("tasks: created once, listed oldest first, updated only from a current read", async () => {
  await using t = await tempKv();
  const repo = new TaskRepo(t.kv);
  await repo.create(task("01B"));
  await repo.create(task("01A"));
  await repo.create({ ...task("01A"), status: "running" });
  assert.deepEqual((await repo.list()).map((r) => [r.id, r.status]), [
    ["01A", "pending"],
    ["01B", "pending"],
  ]);
  const read = await repo.get("01A");
  // A cancel lands between the runner's read and its write: the runner's write loses.
  assert.equal(
    await repo.update({ ...read.value!, status: "cancelled" }, read.versionstamp!),
    true,
  );
  assert.equal(await repo.update({ ...read.value!, next_item: 1 }, read.versionstamp!), false);
  assert.equal((await repo.get("01A")).value?.status, "cancelled");
});

Deno.test("tasks: one instance leases a task; a lapsed lease is taken over", async () => {
  await using t = await tempKv();
  const repo = new TaskRepo(t.kv);
  await repo.create(task("01A"));
  const won = await Promise.all(["i1", "i2", "i3"].map((o) => repo.lease("01A", o, 60_000)));
  assert.equal(won.filter(Boolean).length, 1);
  const owner = ["i1", "i2", "i3"][won.indexOf(true)];
  const other = owner === "i1" ? "i2" : "i1";
  assert.equal(await repo.lease("01A", owner, 60_000), true, "the holder renews");
  await repo.release("01A", other);
  assert.equal(await repo.lease("01A", other, 60_000), false, "release of another's is a no-op");
  // The holder died: its lease is past its time (KV drops expired keys lazily).
  await t.kv.set(keys.taskLeases("01A"), { owner, until: Date.now() - 1 });
  assert.equal(await repo.lease("01A", other, 60_000), true);
  await repo.release("01A", other);
  assert.equal(await repo.lease("01A", owner, 60_000), true);
});

Deno.test("tasks: a delete takes the task and its lease", async () => {
  await using t = await tempKv();
  const repo = new TaskRepo(t.kv);
  await repo.create(task("01A"));
  await repo.lease("01A", "i1", 60_000);
  await repo.delete("01A");
  assert.equal((await repo.get("01A")).value, null);
  assert.equal((await t.kv.get(keys.taskLeases("01A"))).value, null);
  assert.deepEqual(await repo.list(), []);
});
