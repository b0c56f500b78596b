import assert from "node:assert/strict";
import { type MountRecord, MountRepo } from "./mount_repo.ts";
import { withRequestMemo } from "./request_memo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";
import { type Calls, countingKv } from "../../tests/helpers/counting_kv.ts";
import { mountRecord } from "../../tests/helpers/records.ts";

function mount(id: string, path: string, config = "cfg1"): MountRecord {
  return mountRecord(id, path, { storage_config_id: config });
}

Deno.test("mounts: a path is taken once, also by concurrent creates", async () => {
  await using t = await tempKv();
  const repo = new MountRepo(t.kv);
  const made = await Promise.all([repo.create(mount("a", "/x")), repo.create(mount("b", "/x"))]);
  assert.deepEqual(made.sort(), [false, true]);
  assert.equal((await repo.list()).length, 1);
});

Deno.test("mounts: an update moves the path and config indexes; a taken path or stale read loses", async () => {
  await using t = await tempKv();
  const repo = new MountRepo(t.kv);
  await repo.create(mount("a", "/a"));
  await repo.create(mount("b", "/b"));
  const read = await repo.get("a");
  const prev = read.value!;
  assert.equal(await repo.update(prev, { ...prev, mount_path: "/b" }, read.versionstamp!), false);
  const next = { ...prev, mount_path: "/c", storage_config_id: "cfg2" };
  assert.equal(await repo.update(prev, next, read.versionstamp!), true);
  assert.equal(await repo.update(prev, { ...prev, name: "z" }, read.versionstamp!), false);
  const idx = await t.kv.getMany([
    keys.mountsByPath("/a"),
    keys.mountsByPath("/c"),
    keys.mountsByStorageConfig("cfg1", "a"),
    keys.mountsByStorageConfig("cfg2", "a"),
  ]);
  assert.deepEqual(idx.map((e) => e.value), [null, "a", null, "a"]);
  assert.equal(await repo.create(mount("d", "/a")), true, "the old path is free");
});

Deno.test("mounts: a delete takes its indexes and its WebDAV properties and locks", async () => {
  await using t = await tempKv();
  const repo = new MountRepo(t.kv);
  const rec = mount("a", "/a");
  await repo.create(rec);
  await repo.create(mount("b", "/b"));
  // More properties than one batch of the delete takes.
  for (let i = 0; i < 1_100; i += 100) {
    const op = t.kv.atomic();
    for (let j = i; j < i + 100; j++) op.set(keys.webdavProps("a", "dir/", `f${j}`), "p");
    await op.commit();
  }
  await t.kv.set(keys.webdavProps("b", "", "keep"), "p");
  await t.kv.set(keys.webdavLocks("a", "tok"), "lock");
  await t.kv.set(keys.webdavLockEpoch("a"), 1);
  await repo.delete(rec);
  const left = await Array.fromAsync(
    t.kv.list({ prefix: [] }),
    (e) => `${String(e.key[0])}:${String(e.key[1])}`,
  );
  assert.deepEqual(left.sort(), [
    "meta:mounts_epoch",
    "mounts:b",
    "mounts_by_path:/b",
    "mounts_by_storage_config:cfg1",
    "webdav_lock_epoch:a", // moved, never deleted; it lapses a day later
    "webdav_props:b",
  ]);
});

Deno.test("mounts: inside a request the list is read once and a write forgets it", async () => {
  await using t = await tempKv();
  const repo = new MountRepo(t.kv);
  await repo.create(mount("a", "/a"));
  await withRequestMemo(async () => {
    const first = await repo.list();
    await t.kv.set(keys.mounts("sneaky"), mount("sneaky", "/s"));
    assert.equal(await repo.list(), first, "memoized within the request");
    await repo.create(mount("b", "/b"));
    assert.deepEqual((await repo.list()).map((m) => m.id), ["a", "b", "sneaky"]);
  });
});

Deno.test("mounts: the table kept in memory follows every write, from another instance too", async () => {
  await using t = await tempKv();
  const calls: Calls = {};
  const here = new MountRepo(countingKv(t.kv, calls));
  const there = new MountRepo(t.kv); // another instance on the same KV
  const ids = async () => (await here.list()).map((m) => m.id);
  const listings = () => calls.list ?? 0;
  assert.deepEqual(await ids(), []);
  await there.create(mount("a", "/a"));
  assert.deepEqual(await ids(), ["a"]);
  const before = listings();
  assert.deepEqual(await ids(), ["a"]);
  assert.deepEqual(await ids(), ["a"]);
  assert.equal(listings(), before, "no change, no listing");
  const read = await there.get("a");
  await there.update(read.value!, { ...read.value!, mount_path: "/z" }, read.versionstamp!);
  assert.deepEqual((await here.list()).map((m) => m.mount_path), ["/z"]);
  await there.delete((await there.get("a")).value!);
  assert.deepEqual(await ids(), []);
  const kept = await here.list();
  assert.throws(() => (kept as MountRecord[]).push(mount("x", "/x")), TypeError);
});
