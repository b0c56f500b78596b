import assert from "node:assert/strict";
import { type LockRecord, WebdavLockRepo } from "./webdav_lock_repo.ts";
import { keys } from "../kv/keys.ts";
import { MountRepo } from "../kv/mount_repo.ts";
import { tempKv } from "../../tests/helpers/kv.ts";
import { mountRecord } from "../../tests/helpers/records.ts";
import { type Calls, countingKv } from "../../tests/helpers/counting_kv.ts";

function lock(token: string, seconds = 600): LockRecord {
  return {
    token,
    mount_id: "m1",
    root: "docs/a.txt",
    depth: "0",
    scope: "exclusive",
    owner: "",
    timeout_s: seconds,
    expires_at: Date.now() + seconds * 1000,
    principal: "admin",
  };
}

Deno.test("webdav locks: a write's check lists them only after a change, on any instance", async () => {
  await using t = await tempKv();
  const calls: Calls = {};
  const here = new WebdavLockRepo(countingKv(t.kv, calls));
  const there = new WebdavLockRepo(t.kv); // another instance on the same KV
  const live = async () => (await here.live("m1")).map((l) => `${l.token}@${l.timeout_s}`);

  assert.deepEqual(await live(), []);
  assert.deepEqual(await live(), []);
  assert.equal(calls.list, 1, "no lock was ever taken: listed once");

  const { epoch } = await there.list("m1");
  assert.equal(await there.create(lock("t1"), epoch), true);
  assert.deepEqual(await live(), ["t1@600"]);
  assert.deepEqual(await live(), ["t1@600"]);
  assert.equal(calls.list, 2);

  assert.equal(await there.refresh(lock("t1", 900)), true);
  assert.deepEqual(await live(), ["t1@900"], "a refresh is seen at once");
  await there.delete("m1", "t1");
  assert.deepEqual(await live(), [], "an unlock is seen at once");
  assert.equal(calls.list, 4);
});

Deno.test("webdav locks: a lock taken against a stale epoch loses, also after a refresh or unlock", async () => {
  await using t = await tempKv();
  const repo = new WebdavLockRepo(t.kv);
  const first = await repo.list("m1");
  assert.equal(await repo.create(lock("t1"), first.epoch), true);
  const before = await repo.list("m1");
  assert.equal(await repo.refresh(lock("t1", 900)), true);
  assert.equal(await repo.create(lock("t2"), before.epoch), false);
  const again = await repo.list("m1");
  await repo.delete("m1", "t1");
  assert.equal(await repo.create(lock("t3"), again.epoch), false);
  assert.deepEqual((await repo.list("m1")).locks, []);
});

Deno.test("webdav locks: a kept lock whose expiry passed is listed again, in case it was refreshed", async () => {
  await using t = await tempKv();
  const repo = new WebdavLockRepo(t.kv);
  const { epoch } = await repo.list("m1");
  const short = { ...lock("t1"), expires_at: Date.now() + 40 };
  assert.equal(await repo.create(short, epoch), true);
  assert.deepEqual((await repo.live("m1")).map((l) => l.token), ["t1"]);
  // The previous version refreshed with a plain set, which moves no epoch.
  await t.kv.set(keys.webdavLocks("m1", "t1"), { ...short, expires_at: Date.now() + 600_000 });
  while (Date.now() <= short.expires_at) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual((await repo.live("m1")).map((l) => l.token), ["t1"], "still held");
});

Deno.test("webdav locks: a deleted mount's lock epoch moves with each commit that drops its locks", async () => {
  await using t = await tempKv();
  const locks = new WebdavLockRepo(t.kv);
  const mounts = new MountRepo(t.kv);
  const rec = mountRecord("m1", "/m1");
  await mounts.create(rec);
  const { epoch } = await locks.list("m1");
  assert.equal(await locks.create(lock("t1"), epoch), true);
  const before = (await t.kv.get(keys.webdavLockEpoch("m1"))).versionstamp;
  await mounts.delete(rec);
  const after = await t.kv.get(keys.webdavLockEpoch("m1"));
  assert.ok(after.versionstamp && after.versionstamp > before!, "moved, not deleted");
  assert.deepEqual(await locks.live("m1"), []);
});

Deno.test("webdav locks: a refresh never brings back a lock that was removed meanwhile", async () => {
  await using t = await tempKv();
  const repo = new WebdavLockRepo(t.kv);
  const { epoch } = await repo.list("m1");
  assert.equal(await repo.create(lock("t1"), epoch), true);
  const [held] = await repo.live("m1"); // what a LOCK refresh read
  await repo.delete("m1", "t1"); // an UNLOCK lands first
  assert.equal(await repo.refresh({ ...held, expires_at: Date.now() + 900_000 }), false);
  assert.deepEqual((await repo.list("m1")).locks, []);
  assert.equal((await t.kv.get(keys.webdavLocks("m1", "t1"))).value, null);
});

Deno.test("webdav locks: concurrent refreshes of one lock all succeed", async () => {
  await using t = await tempKv();
  const repo = new WebdavLockRepo(t.kv);
  const { epoch } = await repo.list("m1");
  assert.equal(await repo.create(lock("t1"), epoch), true);
  const timeouts = [600, 610, 620, 630, 640, 650, 660, 670];
  const done = await Promise.all(timeouts.map((s) => repo.refresh(lock("t1", s))));
  assert.deepEqual(done, timeouts.map(() => true));
  assert.equal((await repo.list("m1")).locks.length, 1);
});
