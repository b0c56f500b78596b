import assert from "node:assert/strict";
import { IdempotencyRepo, MAX_IDEMPOTENCY_CHUNKS } from "./idempotency_repo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

const FP = { request: "req-hash", body: "body-hash" };
const RESULT = { request: "req-hash", body: "body-hash", status: 201, content_type: "x" };

Deno.test("idempotency: of concurrent first uses one reserves, the rest see it pending", async () => {
  await using t = await tempKv();
  const repo = new IdempotencyRepo(t.kv);
  const all = await Promise.all(
    Array.from({ length: 5 }, () => repo.reserve("admin", "k", FP, 60_000)),
  );
  const won = all.filter((r) => r.reserved);
  assert.equal(won.length, 1);
  for (const r of all.filter((r) => !r.reserved)) {
    assert.ok(!r.reserved && r.record.state === "pending" && r.sealed === null);
  }
});

Deno.test("idempotency: a completed result is replayed, also one of several chunks", async () => {
  await using t = await tempKv();
  const repo = new IdempotencyRepo(t.kv);
  const r = await repo.reserve("admin", "k", FP, 60_000);
  assert.ok(r.reserved);
  const sealed = "é".repeat(150_000); // three chunks
  assert.equal(await repo.complete("admin", "k", r.versionstamp, RESULT, sealed, 60_000), true);
  const again = await repo.reserve("admin", "k", FP, 60_000);
  assert.ok(!again.reserved);
  assert.equal(again.record.state, "done");
  assert.equal(again.sealed, sealed);
  assert.equal(again.record.state === "done" && again.record.chunks, 3);
  assert.ok((await repo.reserve("key:other", "k", FP, 60_000)).reserved, "scopes are apart");
});

Deno.test("idempotency: a lost reservation cannot complete; a released key runs again", async () => {
  await using t = await tempKv();
  const repo = new IdempotencyRepo(t.kv);
  const first = await repo.reserve("admin", "k", FP, 60_000);
  assert.ok(first.reserved);
  await repo.release("admin", "k", first.versionstamp);
  const second = await repo.reserve("admin", "k", FP, 60_000);
  assert.ok(second.reserved, "released: free again");
  assert.equal(
    await repo.complete("admin", "k", first.versionstamp, RESULT, "{}", 60_000),
    false,
    "the first reservation is gone",
  );
  await repo.release("admin", "k", first.versionstamp);
  assert.ok(!(await repo.reserve("admin", "k", FP, 60_000)).reserved, "a stale release is a no-op");
});

Deno.test("idempotency: a reply over the chunk limit is not stored", async () => {
  await using t = await tempKv();
  const repo = new IdempotencyRepo(t.kv);
  const r = await repo.reserve("admin", "big", FP, 60_000);
  assert.ok(r.reserved);
  const tooBig = "x".repeat(60_000 * MAX_IDEMPOTENCY_CHUNKS + 1);
  assert.equal(await repo.complete("admin", "big", r.versionstamp, RESULT, tooBig, 60_000), false);
  const fits = "x".repeat(60_000 * MAX_IDEMPOTENCY_CHUNKS);
  assert.equal(await repo.complete("admin", "big", r.versionstamp, RESULT, fits, 60_000), true);
});

Deno.test("idempotency: expired records and results with missing chunks free the key", async () => {
  await using t = await tempKv();
  const repo = new IdempotencyRepo(t.kv);
  // KV may still return a key past its expiry: the repo checks `until` itself.
  await t.kv.set(keys.idempotency("admin", "old"), {
    ...FP,
    state: "pending",
    until: Date.now() - 1,
  });
  assert.ok((await repo.reserve("admin", "old", FP, 60_000)).reserved);
  await t.kv.set(keys.idempotency("admin", "gone"), {
    ...RESULT,
    state: "done",
    chunks: 2,
    until: Date.now() + 60_000,
  });
  await t.kv.set(keys.idempotencyChunks("admin", "gone", 0), "half");
  assert.ok((await repo.reserve("admin", "gone", FP, 60_000)).reserved, "chunk 1 expired");
});
