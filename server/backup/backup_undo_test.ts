import assert from "node:assert/strict";
import { captureUndo, clearUndo, hasUndo, undoMutations } from "./backup_undo.ts";
import { Batcher, type Mutation } from "./backup_batches.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

/** Commits batches to KV atomically, as the restore journal does. */
function batcherOn(kv: Deno.Kv): Batcher {
  return new Batcher(async (list) => {
    const op = kv.atomic();
    for (const m of list) "delete" in m ? op.delete(m.key) : op.set(m.key, m.value);
    assert.ok((await op.commit()).ok);
  });
}

async function apply(kv: Deno.Kv, list: Mutation[]) {
  const b = batcherOn(kv);
  for (const m of list) await b.add(m, 100);
  await b.flush();
}

async function dump(kv: Deno.Kv, prefix: Deno.KvKey) {
  return await Array.fromAsync(kv.list({ prefix }), (e) => [e.key, e.value]);
}

Deno.test("undo: what a restore overwrites, adds and deletes is put back exactly", async () => {
  await using t = await tempKv();
  const kv = t.kv;
  await kv.set(["data", "kept"], { a: 1 });
  await kv.set(["data", "changed"], "old");
  await kv.set(["data", "deleted"], [1, 2]);
  await kv.set(["data", "counter"], new Deno.KvU64(7n));
  const before = await dump(kv, ["data"]);
  const restore: Mutation[] = [
    { key: ["data", "changed"], value: "new" },
    { key: ["data", "deleted"], delete: true },
    { key: ["data", "counter"], value: new Deno.KvU64(1n) },
    ...Array.from({ length: 25 }, (_, i) => ({ key: ["data", "added", i], value: i })),
  ];
  const b = batcherOn(kv);
  const seen: number[] = [];
  const entries = await captureUndo(kv, restore, b, (n) => seen.push(n));
  await b.flush();
  assert.deepEqual(seen, [10, 20, 28]);
  assert.equal(entries, 4, "three values and one pack of absent keys");
  assert.equal(await hasUndo(kv), true);
  await apply(kv, restore);
  assert.notDeepEqual(await dump(kv, ["data"]), before);
  for await (const group of undoMutations(kv)) await apply(kv, group);
  assert.deepEqual(await dump(kv, ["data"]), before);
  await clearUndo(kv);
  assert.equal(await hasUndo(kv), false);
});

Deno.test("undo: many absent keys pack into several entries; clearing takes them all", async () => {
  await using t = await tempKv();
  const long = "k".repeat(1_000);
  const restore = Array.from({ length: 120 }, (_, i) => ({ key: ["x", long, i], value: i }));
  const b = batcherOn(t.kv);
  const entries = await captureUndo(t.kv, restore, b, () => {});
  await b.flush();
  assert.ok(entries >= 4 && entries < 120, `${entries} entries`);
  let keys = 0;
  for await (const group of undoMutations(t.kv)) keys += group.length;
  assert.equal(keys, 120);
  await clearUndo(t.kv);
  assert.equal(await hasUndo(t.kv), false);
});
