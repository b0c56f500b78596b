import assert from "node:assert/strict";
import { type ApiKeyRecord, ApiKeyRepo } from "./api_key_repo.ts";
import { StatsRepo } from "./stats_repo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

function key(id: string, name: string, hash = `hash-${id}`): ApiKeyRecord {
  return {
    id,
    name,
    key_hash: hash,
    key_prefix: "ck_",
    permissions: 1,
    role: "general",
    basic_path: "/",
    is_guest: false,
    created_at: "2026-01-01T00:00:00.000Z",
    expires_at: null,
  };
}

Deno.test("api keys: unique hash and name; the refusal names which", async () => {
  await using t = await tempKv();
  const repo = new ApiKeyRepo(t.kv);
  assert.equal(await repo.create(key("01A", "ci")), "ok");
  assert.equal(await repo.create(key("01B", "other", "hash-01A")), "hash");
  assert.equal(await repo.create(key("01C", "ci")), "name");
  assert.deepEqual((await repo.list()).map((k) => k.id), ["01A"]);
  assert.equal((await new StatsRepo(t.kv).totals()).api_keys, 1, "counted once");
});

Deno.test("api keys: found by hash, also after the remembered id went stale", async () => {
  await using t = await tempKv();
  const repo = new ApiKeyRepo(t.kv);
  await t.kv.set(["extra"], "alongside");
  await repo.create(key("01A", "a", "h"));
  const found = await repo.findByHash("h", [["extra"]]);
  assert.equal(found.rec?.id, "01A");
  assert.equal(found.alongside[0].value, "alongside");
  assert.equal(await repo.getByHash("nope"), null);
  // Another instance deletes the key and makes a new one with the same hash: the id this
  // instance remembers must not be trusted.
  await new ApiKeyRepo(t.kv).delete(key("01A", "a", "h"));
  assert.equal(await repo.getByHash("h"), null);
  await new ApiKeyRepo(t.kv).create(key("01B", "b", "h"));
  assert.equal((await repo.getByHash("h"))?.id, "01B");
});

Deno.test("api keys: a rename moves the name index; stale or taken names lose", async () => {
  await using t = await tempKv();
  const repo = new ApiKeyRepo(t.kv);
  await repo.create(key("01A", "a"));
  await repo.create(key("01B", "b"));
  const read = await repo.get("01A");
  assert.equal(
    await repo.update(read.value!, { ...read.value!, name: "b" }, read.versionstamp!),
    "name",
  );
  assert.equal(
    await repo.update(read.value!, { ...read.value!, name: "c" }, read.versionstamp!),
    "ok",
  );
  assert.equal(
    await repo.update(read.value!, { ...read.value!, name: "d" }, read.versionstamp!),
    "conflict",
  );
  assert.equal(await repo.create(key("01C", "a")), "ok", "the old name is free again");
  assert.equal(await repo.create(key("01D", "c")), "name");
});

Deno.test("api keys: concurrent deletes count once and leave no index behind", async () => {
  await using t = await tempKv();
  const repo = new ApiKeyRepo(t.kv);
  const rec = key("01A", "a");
  await repo.create(rec);
  await repo.touch("01A");
  await Promise.all([repo.delete(rec), repo.delete(rec), new ApiKeyRepo(t.kv).delete(rec)]);
  assert.equal((await new StatsRepo(t.kv).totals()).api_keys, 0);
  const left = await t.kv.getMany([
    keys.apiKeys("01A"),
    keys.apiKeysByHash(rec.key_hash),
    keys.apiKeysByName("a"),
    keys.apiKeyLastUsed("01A"),
  ]);
  assert.deepEqual(left.map((e) => e.value), [null, null, null, null]);
  const deleted = await t.kv.get<Deno.KvU64>(keys.statsTotals("api_keys", "deleted"));
  assert.equal(deleted.value?.value, 1n, "one delete counted");
});

Deno.test("api keys: last-used times for more keys than one read takes", async () => {
  await using t = await tempKv();
  const repo = new ApiKeyRepo(t.kv);
  const ids = Array.from({ length: 23 }, (_, i) => `id${i}`);
  for (const id of ids.filter((_, i) => i % 2 === 0)) await repo.touch(id);
  const used = await repo.lastUsed(ids);
  assert.equal(used.size, 12);
  assert.ok(used.has("id22") && !used.has("id21"));
});
