import assert from "node:assert/strict";
import { BATCH_MUTATIONS, Batcher, type Mutation, sizeOf } from "./backup_batches.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

/** Commits each batch to a real KV in one atomic write, as a restore does. */
function committer(kv: Deno.Kv) {
  const batches: number[] = [];
  const commit = async (list: Mutation[]) => {
    const op = kv.atomic();
    for (const m of list) "delete" in m ? op.delete(m.key) : op.set(m.key, m.value);
    const res = await op.commit();
    assert.ok(res.ok);
    batches.push(list.length);
  };
  return { commit, batches };
}

Deno.test("sizeOf over-estimates what KV stores", () => {
  assert.equal(sizeOf("abc"), 13);
  assert.equal(sizeOf(null), 2);
  assert.equal(sizeOf(new Uint8Array(10)), 18);
  assert.equal(sizeOf(new Deno.KvU64(1n)), 16);
  assert.ok(
    sizeOf({ a: ["é".repeat(10)] }) >=
      new TextEncoder().encode(JSON.stringify({ a: ["é".repeat(10)] })).length,
  );
});

Deno.test("batches stay under KV's mutation count and size limits, and all land", async () => {
  await using t = await tempKv();
  const c = committer(t.kv);
  const b = new Batcher(c.commit);
  for (let i = 0; i < 1_000; i++) await b.add({ key: ["n", i], value: i }, sizeOf(i));
  const big = "x".repeat(60_000);
  for (let i = 0; i < 25; i++) await b.add({ key: ["big", i], value: big }, sizeOf(big));
  await b.add({ key: ["n", 0], delete: true }, 2);
  await b.flush();
  await b.flush();
  assert.ok(c.batches.every((n) => n <= BATCH_MUTATIONS), `${c.batches}`);
  assert.equal(c.batches.reduce((a, n) => a + n, 0), 1_026);
  assert.deepEqual(c.batches.slice(0, 3), [400, 400, 200 + 3], "big values close a batch early");
  assert.equal((await t.kv.get(["n", 0])).value, null, "writes keep their order");
  assert.equal((await t.kv.get(["n", 999])).value, 999);
  assert.equal((await Array.fromAsync(t.kv.list({ prefix: ["big"] }))).length, 25);
});
