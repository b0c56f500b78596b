import assert from "node:assert/strict";
import { EpochCache, frozenRecords, MAX_AGE_MS } from "./epoch_cache.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

const EPOCH = ["meta", "test_epoch"];

Deno.test("epoch cache: loads once while the epoch stands, again once it moves", async () => {
  await using t = await tempKv();
  const cache = new EpochCache<number>(t.kv);
  let loads = 0;
  const load = () => Promise.resolve(++loads);
  assert.equal(await cache.get("a", EPOCH, load), 1, "no epoch yet: loaded, kept under none");
  assert.equal(await cache.get("a", EPOCH, load), 1);
  assert.equal(await cache.get("b", EPOCH, load), 2, "each name is kept apart");
  await t.kv.set(EPOCH, Date.now());
  assert.equal(await cache.get("a", EPOCH, load), 3);
  assert.equal(await cache.get("a", EPOCH, load), 3);
  await t.kv.delete(EPOCH); // writers never delete one; if one went, it moved all the same
  assert.equal(await cache.get("a", EPOCH, load), 4);
});

Deno.test("epoch cache: a kept value is loaded again once it is MAX_AGE_MS old, though its epoch stands", async () => {
  // A writer that does not move the epoch (the previous version, during a rolling upgrade) leaves
  // a kept value stale for at most that long.
  await using t = await tempKv();
  let clock = 1_000_000;
  const cache = new EpochCache<number>(t.kv, () => clock);
  let loads = 0;
  const load = () => Promise.resolve(++loads);
  assert.equal(await cache.get("a", EPOCH, load), 1);
  clock += MAX_AGE_MS - 1;
  assert.equal(await cache.get("a", EPOCH, load), 1);
  clock += 1;
  assert.equal(await cache.get("a", EPOCH, load), 2);
  assert.equal(await cache.get("a", EPOCH, load), 2);
});

Deno.test("epoch cache: a value its caller calls stale is loaded again", async () => {
  await using t = await tempKv();
  const cache = new EpochCache<number>(t.kv);
  let loads = 0;
  const load = () => Promise.resolve(++loads);
  assert.equal(await cache.get("a", EPOCH, load, () => false), 1);
  assert.equal(await cache.get("a", EPOCH, load, (v) => v === 1), 2);
  assert.equal(await cache.get("a", EPOCH, load, (v) => v === 1), 2);
});

Deno.test("epoch cache: a change made while loading is seen by the next use", async () => {
  await using t = await tempKv();
  const cache = new EpochCache<string>(t.kv);
  let table = "old";
  const load = async () => {
    const seen = table;
    // Another instance writes between our read of the epoch and our load finishing.
    table = "new";
    await t.kv.set(EPOCH, Date.now());
    return seen;
  };
  assert.equal(await cache.get("a", EPOCH, load), "old");
  assert.equal(await cache.get("a", EPOCH, () => Promise.resolve(table)), "new");
});

Deno.test("epoch cache: kept records are frozen, so no caller can change what others read", () => {
  const kept = frozenRecords([{ id: "a" }]);
  assert.throws(() => (kept[0] as { id: string }).id = "b", TypeError);
  assert.throws(() => (kept as { id: string }[]).push({ id: "c" }), TypeError);
});
