import assert from "node:assert/strict";
import { AccountRepo, type AdminAccount } from "./account_repo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

const ACCOUNT: AdminAccount = {
  username: "admin",
  password_hash: "hash-1",
  session_epoch: 0,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

Deno.test("account: created once; of concurrent first starts one wins", async () => {
  await using t = await tempKv();
  const repo = new AccountRepo(t.kv);
  assert.equal((await repo.getAdmin()).value, null);
  const made = await Promise.all(
    ["a", "b", "c"].map((u) => repo.createAdminIfMissing({ ...ACCOUNT, username: u })),
  );
  assert.equal(made.filter(Boolean).length, 1);
  const winner = ["a", "b", "c"][made.indexOf(true)];
  assert.equal((await repo.getAdmin()).value?.username, winner);
  assert.equal(await repo.createAdminIfMissing(ACCOUNT), false);
  assert.deepEqual((await t.kv.get(repo.adminKey())).value, {
    ...ACCOUNT,
    username: winner,
  });
});

Deno.test("account: an update checked against a stale read loses", async () => {
  await using t = await tempKv();
  const repo = new AccountRepo(t.kv);
  await repo.createAdminIfMissing(ACCOUNT);
  const read = await repo.getAdmin();
  const next = { ...ACCOUNT, password_hash: "hash-2", session_epoch: 1 };
  assert.equal(await repo.updateAdmin(next, read.versionstamp!), true);
  assert.equal(
    await repo.updateAdmin({ ...ACCOUNT, password_hash: "hash-3" }, read.versionstamp!),
    false,
  );
  assert.equal((await repo.getAdmin()).value?.password_hash, "hash-2");
});

Deno.test("account: sessions live for a day, can be deleted, and past-expiry ones are gone", async () => {
  await using t = await tempKv();
  const repo = new AccountRepo(t.kv);
  const s = await repo.createSession("tok", 3);
  assert.equal(s.epoch, 3);
  const ttl = Date.parse(s.expires_at) - Date.parse(s.created_at);
  assert.equal(ttl, 24 * 3600_000);
  assert.deepEqual(await repo.getSession("tok"), s);
  assert.equal(await repo.getSession("other"), null);
  await repo.deleteSession("tok");
  assert.equal(await repo.getSession("tok"), null);
  // KV removes expired keys lazily: a session past its time must still read as none.
  await t.kv.set(keys.sessions("old"), {
    epoch: 0,
    created_at: new Date(Date.now() - 2000).toISOString(),
    expires_at: new Date(Date.now() - 1).toISOString(),
  });
  assert.equal(await repo.getSession("old"), null);
});
