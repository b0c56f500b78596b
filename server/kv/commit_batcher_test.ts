import assert from "node:assert/strict";
import type { Calls } from "../../tests/helpers/counting_kv.ts";
import { withCountedKv } from "../../tests/helpers/kv.ts";
import { CommitBatcher, keySizeOf, type KvWrite, sizeOf } from "./commit_batcher.ts";

const withKv = (fn: (kv: Deno.Kv, calls: Calls) => Promise<void>) =>
  withCountedKv(fn, "cubby-batcher-");

Deno.test("commit batcher: concurrent writers share commits; each one's writes land, in order", async () => {
  await withKv(async (kv, calls) => {
    const b = new CommitBatcher(kv);
    await b.write([{ key: ["alone"], value: 1 }]);
    assert.equal(calls.commit, 1, "a lone writer commits at once");
    const writers = Array.from({ length: 16 }, (_, i) =>
      b.write([
        { key: ["w", i], value: "first" },
        { key: ["w", i], value: "second" },
        { key: ["same"], value: i },
        { key: ["count"], sum: 1n },
        { key: ["gone", i], value: true },
        { key: ["gone", i] },
      ]));
    await Promise.all(writers);
    assert.ok(calls.commit! <= 3, `16 writers took ${calls.commit! - 1} commits`);
    for (let i = 0; i < 16; i++) assert.equal((await kv.get(["w", i])).value, "second");
    assert.equal((await kv.get(["same"])).value, 15, "callers are applied in arrival order");
    assert.equal((await kv.get<Deno.KvU64>(["count"])).value?.value, 16n);
    assert.equal((await kv.get(["gone", 3])).versionstamp, null);
  });
});

Deno.test("commit batcher: a write KV refuses fails its caller only; too much for a commit is refused", async () => {
  await withKv(async (kv) => {
    const b = new CommitBatcher(kv);
    const bad: KvWrite[] = [{ key: ["big"], value: "x".repeat(70_000) }];
    const results = await Promise.allSettled([
      b.write([{ key: ["ok", 1], value: 1 }]),
      b.write([{ key: ["ok", 2], value: 2 }]),
      b.write(bad),
      b.write([{ key: ["ok", 3], value: 3 }]),
    ]);
    assert.deepEqual(results.map((r) => r.status), [
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    assert.match(String((results[2] as PromiseRejectedResult).reason), /Value too large/);
    for (const i of [1, 2, 3]) assert.equal((await kv.get(["ok", i])).value, i);

    const tooMany = Array.from({ length: 1_001 }, (_, i) => ({ key: ["m", i], value: i }));
    assert.equal(b.writeIfFits(tooMany), null);
    await assert.rejects(b.write(tooMany), RangeError);
    assert.equal((await kv.get(["m", 0])).versionstamp, null);
    await b.writeIfFits(tooMany.slice(1));
    assert.equal((await kv.get(["m", 1])).value, 1);
  });
});

Deno.test("keySizeOf counts a key's strings in UTF-8 bytes, as KV encodes them", () => {
  const encoder = new TextEncoder();
  for (const part of ["abc", "é", "名前", "𝄞x", "\ud800"]) {
    assert.equal(keySizeOf([part]), 4 + encoder.encode(part).length + 4, part);
  }
  assert.equal(keySizeOf(["a", 1, "名"]), 4 + 5 + 12 + 7);
});

Deno.test("sizeOf counts a byte value by its length, not by its JSON", () => {
  const key = ["blob", "x"];
  const size = sizeOf([{ key, value: new Uint8Array(1000) }, { key, value: { a: 1 } }, { key }]);
  const k = keySizeOf(key);
  assert.deepEqual(size, {
    mutations: 3,
    keyBytes: 3 * k,
    bytes: (k + 1008) + (k + JSON.stringify({ a: 1 }).length + 8) + (k + 16),
  });
});
