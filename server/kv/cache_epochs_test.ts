import assert from "node:assert/strict";
import { CacheEpochs, type EpochName } from "./cache_epochs.ts";
import { withTempKv } from "../../tests/helpers/kv.ts";

Deno.test("cache epochs: a stamp covers any number of epochs, and moves when one of them does", async () => {
  await withTempKv(async (kv) => {
    const epochs = new CacheEpochs(kv);
    // A search over many storage configs stamps them all: more than one getMany takes.
    const names: EpochName[] = [
      "caches",
      ...Array.from({ length: 24 }, (_, i) => `storage:c${i}` as const),
    ];
    const before = await epochs.stamp(...names);
    assert.equal(before.split(".").length, 25);
    assert.equal(await epochs.stamp(...names), before, "nothing moved");
    await epochs.bump("storage:c23");
    const after = await epochs.stamp(...names);
    assert.notEqual(after, before);
    await epochs.bumpIn(kv.atomic(), "caches").commit();
    assert.notEqual(await epochs.stamp(...names), after);
  });
});

Deno.test("cache epochs: a follower hears of moves made through another handle", async () => {
  await withTempKv(async (kv) => {
    const epochs = new CacheEpochs(kv);
    let heard = 0;
    const moved = new Promise<void>((resolve) =>
      epochs.follow(["settings"], () => {
        heard++;
        resolve();
      })
    );
    // The watch's first reading is no move, and the watch opens in the background: move the
    // epoch until the follower hears of it.
    const other = new CacheEpochs(kv);
    while (heard === 0) {
      await other.bump("settings");
      await Promise.race([moved, new Promise((r) => setTimeout(r, 100))]);
    }
    epochs.stopFollowing();
    assert.ok(heard >= 1);
  });
});
