import assert from "node:assert/strict";
import { join } from "node:path";
import type { Calls } from "../../tests/helpers/counting_kv.ts";
import { withCountedKv } from "../../tests/helpers/kv.ts";
import { proxyKv } from "./kv_proxy.ts";
import { keyName } from "./key_names.ts";
import { ReadGroups, readGroupsOf } from "./read_groups.ts";

const withKv = (fn: (kv: Deno.Kv, calls: Calls, path: string) => Promise<void>) =>
  withCountedKv(fn, "cubby-read-groups-");

Deno.test("read groups: reads asked together go as one getMany per 10 distinct keys", async () => {
  await withKv(async (kv, calls) => {
    for (let i = 0; i < 30; i++) await kv.set(["rec", i], `value ${i}`);
    const reads = new ReadGroups(kv);

    assert.equal((await reads.get(["rec", 1])).value, "value 1", "a lone read needs no company");
    assert.equal(calls.getMany, 1);

    // 40 callers of one hot key, and their counters, make one read of two keys.
    const hot = await Promise.all(
      Array.from({ length: 40 }, () => reads.getMany([["rec", 2], ["count", 2]])),
    );
    assert.equal(calls.getMany, 2);
    for (const [rec, count] of hot) {
      assert.equal(rec.value, "value 2");
      assert.equal(count.value, null, "a missing key reads as null");
      assert.equal(count.versionstamp, null);
    }

    // 25 distinct keys, one per caller: three reads (10, 10, 5).
    const spread = await Promise.all(
      Array.from({ length: 25 }, (_, i) => reads.get<string>(["rec", i])),
    );
    assert.equal(calls.getMany, 5);
    spread.forEach((e, i) => assert.equal(e.value, `value ${i}`, "each caller gets its own key"));
  });
});

Deno.test("read groups: one caller's keys stay in one read, in the order asked", async () => {
  await withKv(async (kv) => {
    for (let i = 0; i < 20; i++) await kv.set(["rec", i], i);
    const made: Deno.KvKey[][] = [];
    const watched = proxyKv(
      kv,
      () => ({ commit: (c) => c() }),
      (prop, real) =>
        prop === "getMany"
          ? (...args: unknown[]) => {
            made.push(args[0] as Deno.KvKey[]);
            return real(...args);
          }
          : real,
    );
    const reads = new ReadGroups(watched);
    // Three callers of four keys each: the third does not fit beside the first two (12 keys),
    // so it goes in a read of its own, whole.
    const asked = [[3, 2, 1, 0], [7, 6, 5, 4], [11, 10, 9, 8]];
    const got = await Promise.all(asked.map((ids) => reads.getMany(ids.map((i) => ["rec", i]))));
    got.forEach((entries, c) => assert.deepEqual(entries.map((e) => e.value), asked[c]));
    assert.deepEqual(made.map((keys) => keys.map((k) => k[1])), [[3, 2, 1, 0, 7, 6, 5, 4], [
      11,
      10,
      9,
      8,
    ]]);
  });
});

Deno.test("read groups: a read asked after a write on another handle sees it", async () => {
  await withKv(async (kv, _calls, path) => {
    const other = await Deno.openKv(path);
    try {
      const reads = new ReadGroups(kv);
      for (let i = 0; i < 20; i++) {
        const pending = reads.get(["shared"]); // asked before the write: may see either
        await other.set(["shared"], i);
        const after = reads.get(["shared"]); // asked after it: must see it
        await pending;
        assert.equal((await after).value, i);
      }
    } finally {
      other.close();
    }
  });
});

Deno.test("read groups: a key KV refuses fails only the caller that asked for it", async () => {
  await withKv(async (kv) => {
    await kv.set(["ok"], "fine");
    const reads = new ReadGroups(kv);
    const tooLarge = reads.get(["x".repeat(5000)]);
    const fine = reads.get(["ok"]);
    await assert.rejects(tooLarge, TypeError);
    assert.equal((await fine).value, "fine");
    // More keys than one read takes: KV's own error, as from kv.getMany.
    const eleven = Array.from({ length: 11 }, (_, i) => ["ok", i]);
    await assert.rejects(reads.getMany(eleven), TypeError);
  });
});

Deno.test("read groups: a key that is not one is refused to its caller alone, in its own turn", async () => {
  await withKv(async (kv) => {
    await kv.set(["ok"], "fine");
    const reads = new ReadGroups(kv);
    const bad = reads.get([Object.create(null)]);
    const fine = reads.get(["ok"]);
    await assert.rejects(bad);
    assert.equal((await fine).value, "fine");
  });
});

Deno.test("read groups: a failure that is not KV refusing a key goes to every caller, once", async () => {
  await withKv(async (kv) => {
    let reads = 0;
    const failing = proxyKv(
      kv,
      () => ({ commit: (c) => c() }),
      (prop, real) =>
        prop === "getMany"
          ? () => {
            reads++;
            return Promise.reject(new Error("KV unreachable"));
          }
          : real,
    );
    const groups = new ReadGroups(failing);
    const asked = [groups.get(["a"]), groups.get(["b"]), groups.get(["c"])];
    for (const r of asked) await assert.rejects(r, /KV unreachable/);
    assert.equal(reads, 1, "no caller tried again on its own");
  });
});

Deno.test("read groups: a closed handle rejects every caller instead of throwing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cubby-read-groups-" });
  try {
    const kv = await Deno.openKv(join(dir, "kv.sqlite"));
    const reads = readGroupsOf(kv);
    assert.equal(readGroupsOf(kv), reads, "one group per handle");
    const asked = [reads.get(["a"]), reads.get(["b"])];
    kv.close();
    for (const r of asked) await assert.rejects(r);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("read groups: key names tell apart every two keys KV tells apart", () => {
  const distinct: Deno.KvKey[] = [
    ["a", "b"],
    ["ab"],
    ["a\u0000", "b"],
    ["a", "\u0000b"],
    [1],
    ["1"],
    [1n],
    [true],
    ["true"],
    [0],
    [-0],
    [new Uint8Array([1, 2])],
    [new Uint8Array([1]), new Uint8Array([2])],
    ["s1:a"],
    ["a", 1],
  ];
  const names = distinct.map(keyName);
  assert.equal(new Set(names).size, distinct.length, names.join(" | "));
  assert.equal(keyName(["pastes", "01J"]), keyName(["pastes", "01J"]));
  // KV stores strings as UTF-8: a lone surrogate is the same key as U+FFFD.
  assert.equal(keyName(["s", "\uD800"]), keyName(["s", "\uFFFD"]));
  assert.notEqual(keyName(["s", "\uD800"]), keyName(["s", "?"]));
});
