import assert from "node:assert/strict";
import { SettingsRepo } from "./settings_repo.ts";
import { CacheEpochs } from "./cache_epochs.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

Deno.test("settings: a group write lands whole and moves the settings epoch once", async () => {
  await using t = await tempKv();
  const epochs = new CacheEpochs(t.kv);
  const repo = new SettingsRepo(t.kv, epochs);
  assert.deepEqual(await repo.readAll(), new Map());
  const before = await epochs.stamp("settings");
  await repo.writeMany({ site_title: "Cubby", max_upload_bytes: 5, allow_guest: false });
  const after = await epochs.stamp("settings");
  assert.equal(Number(after), Number(before) + 1);
  assert.deepEqual(
    await repo.readAll(),
    new Map<string, unknown>([["allow_guest", false], ["max_upload_bytes", 5], [
      "site_title",
      "Cubby",
    ]]),
  );
  await repo.writeMany({ site_title: "Other" });
  const all = await repo.readAll();
  assert.equal(all.get("site_title"), "Other", "last writer wins");
  assert.equal(all.get("max_upload_bytes"), 5, "keys not written stay");
});

Deno.test("settings: concurrent writers never fail each other", async () => {
  await using t = await tempKv();
  const repo = new SettingsRepo(t.kv, new CacheEpochs(t.kv));
  await Promise.all(Array.from({ length: 6 }, (_, i) => repo.writeMany({ [`k${i}`]: i })));
  const all = await repo.readAll();
  assert.equal(all.size, 6);
  assert.equal(await new CacheEpochs(t.kv).stamp("settings"), "6");
});
