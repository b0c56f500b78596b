import assert from "node:assert/strict";
import {
  localStorageConfig,
  storageConfigNameKey,
  type StorageConfigRecord,
  StorageConfigRepo,
} from "./storage_config_repo.ts";
import { StatsRepo } from "./stats_repo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

function config(id: string, name: string): StorageConfigRecord {
  return localStorageConfig({
    id,
    name,
    is_public: false,
    signature_expires_in: 3600,
    root_dir: "/data",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  });
}

Deno.test("storage configs: names compare trimmed and case-folded", () => {
  assert.equal(storageConfigNameKey("  Photos "), "photos");
  assert.equal(storageConfigNameKey("İ"), "i̇");
  assert.equal(storageConfigNameKey("   "), "");
});

Deno.test("storage configs: two creates claiming one name: one wins", async () => {
  await using t = await tempKv();
  const repo = new StorageConfigRepo(t.kv);
  const claimA = await repo.claimName("Photos");
  const claimB = await repo.claimName(" photos");
  assert.deepEqual(claimA, { versionstamp: null });
  const made = await Promise.all([
    repo.create(config("a", "Photos"), false, claimA),
    repo.create(config("b", " photos"), false, claimB),
  ]);
  assert.deepEqual(made.sort(), [false, true]);
  assert.equal((await repo.list()).length, 1);
  assert.equal((await new StatsRepo(t.kv).totals()).storage_configs, 1);
  assert.equal(await repo.claimName(""), null, "the unnamed default has no index");
});

Deno.test("storage configs: the initial default is made once across instances", async () => {
  await using t = await tempKv();
  const repo = new StorageConfigRepo(t.kv);
  const made = await Promise.all([
    repo.createInitialDefault(config("a", "")),
    new StorageConfigRepo(t.kv).createInitialDefault(config("b", "")),
  ]);
  assert.deepEqual(made.sort(), [false, true]);
  const id = await repo.getDefaultId();
  assert.ok(id === "a" || id === "b");
  assert.equal((await repo.list()).length, 1);
});

Deno.test("storage configs: a rename frees the old name and takes the new", async () => {
  await using t = await tempKv();
  const repo = new StorageConfigRepo(t.kv);
  await repo.create(config("a", "One"), true, await repo.claimName("One"));
  const read = await repo.get("a");
  const next = { ...read.value!, name: "Two" };
  assert.equal(
    await repo.update(read.value!, next, read.versionstamp!, await repo.claimName("Two")),
    true,
  );
  assert.equal((await t.kv.get(keys.storageConfigsByName("one"))).value, null);
  assert.equal((await t.kv.get(keys.storageConfigsByName("two"))).value, "a");
  assert.equal(
    await repo.update(read.value!, next, read.versionstamp!, await repo.claimName("Two")),
    false,
    "stale read",
  );
  assert.equal(await repo.create(config("b", "one"), false, await repo.claimName("one")), true);
});

Deno.test("storage configs: in use while a file or mount refers to it; delete moves the default", async () => {
  await using t = await tempKv();
  const repo = new StorageConfigRepo(t.kv);
  await repo.create(config("a", "A"), true, await repo.claimName("A"));
  await repo.create(config("b", "B"), false, await repo.claimName("B"));
  assert.equal(await repo.isInUse("a"), false);
  await t.kv.set(keys.mountsByStorageConfig("a", "m1"), "m1");
  assert.equal(await repo.isInUse("a"), true);
  await t.kv.set(keys.filesByStorageConfig("b", "f1"), "f1");
  assert.equal(await repo.isInUse("b"), true);
  await t.kv.atomic().sum(keys.storageUsage("a"), 10n).commit();
  assert.equal(await repo.usedBytes("a"), 10);
  const read = await repo.get("a");
  assert.equal(await repo.delete("a", read.versionstamp!, "b"), true);
  assert.equal(await repo.getDefaultId(), "b");
  assert.equal(await repo.usedBytes("a"), 0, "its usage counter goes with it");
  assert.equal((await t.kv.get(keys.storageConfigsByName("a"))).value, null);
  assert.equal(await repo.delete("a", read.versionstamp!, undefined), false, "already gone");
  const b = await repo.get("b");
  assert.equal(await repo.delete("b", b.versionstamp!, null), true);
  assert.equal(await repo.getDefaultId(), null);
  assert.equal((await new StatsRepo(t.kv).totals()).storage_configs, 0);
});
