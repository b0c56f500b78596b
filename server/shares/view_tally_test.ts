import assert from "node:assert/strict";
import { ViewTally } from "./view_tally.ts";
import { withTempKv } from "../../tests/helpers/kv.ts";

const counterOf = async (kv: Deno.Kv, key: Deno.KvKey) =>
  Number((await kv.get<Deno.KvU64>(key)).value?.value ?? 0n);

Deno.test("views wait in memory, then reach KV with sum after the flush interval", async () => {
  await withTempKv(async (kv) => {
    await kv.set(["recs", "a"], { max_views: 0 });
    await kv.set(["views", "a"], new Deno.KvU64(7n));
    const tally = new ViewTally(kv, 50);
    try {
      for (let i = 1; i <= 3; i++) assert.equal(tally.add(["recs", "a"], ["views", "a"]), i);
      assert.equal(tally.pendingOf(["views", "a"]), 3);
      assert.equal(await counterOf(kv, ["views", "a"]), 7, "nothing written per view");
      const deadline = Date.now() + 5_000;
      while (await counterOf(kv, ["views", "a"]) !== 10) {
        assert.ok(Date.now() < deadline, "the timer flushed within 5 s");
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(tally.pendingOf(["views", "a"]), 0);
    } finally {
      await tally.close();
    }
  });
});

Deno.test("a flush drops views of shares that were deleted or given a limit since", async () => {
  await withTempKv(async (kv) => {
    await kv.set(["recs", "open"], { max_views: 0 });
    await kv.set(["recs", "limited"], { max_views: 0 });
    await kv.set(["recs", "gone"], { max_views: 0 });
    const tally = new ViewTally(kv, 60_000);
    for (const id of ["open", "limited", "gone"]) {
      for (let i = 0; i < 4; i++) tally.add(["recs", id], ["views", id]);
    }
    // The owner sets a limit (which resets the counter) and deletes another share.
    await kv.set(["recs", "limited"], { max_views: 2 });
    await kv.set(["views", "limited"], new Deno.KvU64(0n));
    await kv.delete(["recs", "gone"]);
    await tally.flush();
    assert.equal(await counterOf(kv, ["views", "open"]), 4);
    assert.equal(await counterOf(kv, ["views", "limited"]), 0, "not charged to the new limit");
    assert.equal((await kv.get(["views", "gone"])).versionstamp, null, "no stray counter");
    await tally.close();
  });
});

Deno.test("more shares than one batch flush in one go; close writes the rest", async () => {
  await withTempKv(async (kv) => {
    const tally = new ViewTally(kv, 60_000);
    for (let n = 0; n < 25; n++) {
      await kv.set(["recs", n], { max_views: 0 });
      for (let i = 0; i <= n; i++) tally.add(["recs", n], ["views", n]);
    }
    await tally.close();
    for (let n = 0; n < 25; n++) assert.equal(await counterOf(kv, ["views", n]), n + 1);
    assert.throws(() => tally.add(["recs", 0], ["views", 0]), /closed/);
  });
});

Deno.test("views counted while a flush runs are kept for the next one", async () => {
  await withTempKv(async (kv) => {
    await kv.set(["recs", "a"], { max_views: 0 });
    const tally = new ViewTally(kv, 60_000);
    const adds = Array.from({ length: 100 }, async (_, i) => {
      if (i % 10 === 0) await tally.flush();
      tally.add(["recs", "a"], ["views", "a"]);
    });
    await Promise.all(adds);
    await tally.close();
    assert.equal(await counterOf(kv, ["views", "a"]), 100);
  });
});
