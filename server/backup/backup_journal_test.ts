import assert from "node:assert/strict";
import { JournalLostError, type Mutation, RestoreJournal } from "./backup_journal.ts";
import { withTempKv } from "../../tests/helpers/kv.ts";
import { crashingJournalKv } from "../../tests/helpers/journal_crash.ts";
import { createTestApp } from "../../tests/helpers/app.ts";

/** Keys (as JSON) and values, in order: a state to compare with deepEqual. */
type Dump = [string, unknown][];

/** Every key and value under the test prefixes, to compare states. */
async function dump(kv: Deno.Kv): Promise<Dump> {
  const out: Dump = [];
  for (const prefix of [["t"], ["restore_journal"], ["restore_undo"]]) {
    for await (const e of kv.list({ prefix })) {
      const v = e.value instanceof Deno.KvU64 ? `u64:${e.value.value}` : e.value;
      out.push([JSON.stringify(e.key), v instanceof Uint8Array ? `bytes:${v.length}` : v]);
    }
  }
  return out;
}

/** Makes the marker look like its owner died a minute ago. */
async function ageMarker(kv: Deno.Kv) {
  const m = (await kv.get<Record<string, unknown>>(["restore_journal"])).value!;
  const old = new Date(Date.now() - 60_000).toISOString();
  await kv.set(["restore_journal"], { ...m, heartbeat_at: old });
}

/** A state worth restoring: plain values, a u64 counter, bytes near the value limit. */
async function seed(kv: Deno.Kv) {
  for (let i = 0; i < 300; i++) await kv.set(["t", "old", i], { n: i, text: "vieux ✓" });
  await kv.set(["t", "counter"], new Deno.KvU64(41n));
  await kv.set(["t", "bytes"], new Uint8Array(60_000).fill(7));
}

/** Runs `fn` on a temporary KV holding the seed, with the seed's dump to compare with after. */
function withSeededKv(fn: (kv: Deno.Kv, before: Dump) => Promise<void>) {
  return withTempKv(async (kv) => {
    await seed(kv);
    await fn(kv, await dump(kv));
  });
}

/** Once the dead owner's marker has aged, recover() repairs a crash in `phase` back to `before`. */
async function assertRecovers(kv: Deno.Kv, phase: string, before: Dump) {
  await ageMarker(kv);
  assert.equal(await new RestoreJournal(kv).recover(), phase);
  assert.deepEqual(await dump(kv), before);
}

/** Overwrites, deletes and creates many keys: several commits' worth. */
function mutations(): Mutation[] {
  const out: Mutation[] = [];
  for (let i = 0; i < 2_000; i++) out.push({ key: ["t", "new", i], value: { i } });
  for (let i = 0; i < 300; i += 2) out.push({ key: ["t", "old", i], value: "replaced" });
  for (let i = 1; i < 300; i += 2) out.push({ key: ["t", "old", i], delete: true });
  out.push({ key: ["t", "counter"], value: new Deno.KvU64(1n) });
  out.push({ key: ["t", "bytes"], delete: true });
  return out;
}

/**
 * Runs the journal and stands in for a crash in `phase` (crashingJournalKv): it stops where it
 * is, without cleaning up, exactly as if the process had died there.
 */
async function crashDuring(kv: Deno.Kv, phase: "capturing" | "applying") {
  const crashing = crashingJournalKv(kv, phase);
  const journal = new RestoreJournal(crashing.kv);
  assert.ok(await journal.begin("r1", "overwrite", ["text_management"], 0));
  const err = await journal.run(mutations()).then(() => null, (e) => e);
  assert.ok(crashing.crashed(), `the run never showed phase ${phase} with progress`);
  assert.ok(err instanceof JournalLostError, String(err));
}

Deno.test("journal: a completed run writes everything and leaves no journal", async () => {
  await withTempKv(async (kv) => {
    await seed(kv);
    assert.ok(await new RestoreJournal(kv).begin("r1", "overwrite", [], 0));
    // A second restore cannot start while the first holds the marker.
    assert.equal(await new RestoreJournal(kv).begin("r2", "merge", [], 0), false);
    await kv.delete(["restore_journal"]);
    const journal = new RestoreJournal(kv);
    assert.ok(await journal.begin("r3", "overwrite", [], 0));
    await journal.run(mutations());
    assert.deepEqual((await kv.get(["t", "new", 1999])).value, { i: 1999 });
    assert.equal((await kv.get(["t", "old", 0])).value, "replaced");
    assert.equal((await kv.get(["t", "old", 1])).versionstamp, null);
    assert.equal((await kv.get<Deno.KvU64>(["t", "counter"])).value?.value, 1n);
    const status = await journal.status();
    assert.deepEqual([status.restoring, status.undo_entries], [false, 0]);
  });
});

Deno.test("journal: a crash while applying is rolled back by recover()", async () => {
  await withSeededKv(async (kv, before) => {
    await crashDuring(kv, "applying");
    assert.equal((await kv.get(["t", "new", 0])).versionstamp !== null, true, "partly applied");
    // A fresh heartbeat means "maybe alive": left alone until it goes stale.
    assert.equal(await new RestoreJournal(kv).recover(), "busy");
    await assertRecovers(kv, "applying", before);
    assert.equal(await new RestoreJournal(kv).recover(), "none");
  });
});

Deno.test("journal: a crash during the rollback is repaired by rolling back again", async () => {
  await withSeededKv(async (kv, before) => {
    await crashDuring(kv, "applying");
    // Stand in for a crash half-way through the rollback: the marker says rolling_back and only
    // some of the undo entries have been written back.
    const marker = (await kv.get<Record<string, unknown>>(["restore_journal"])).value!;
    await kv.set(["restore_journal"], { ...marker, phase: "rolling_back", done: 3 });
    await assertRecovers(kv, "rolling_back", before);
  });
});

Deno.test("journal: a crash while capturing drops the undo area and changes nothing", async () => {
  await withSeededKv(async (kv, before) => {
    await crashDuring(kv, "capturing");
    assert.ok((await new RestoreJournal(kv).status()).restoring);
    await assertRecovers(kv, "capturing", before);
  });
});

Deno.test("journal: a write that KV refuses rolls the whole run back", async () => {
  await withSeededKv(async (kv, before) => {
    const journal = new RestoreJournal(kv);
    assert.ok(await journal.begin("r1", "overwrite", [], 0));
    // The last mutation is over the 64 KiB value limit: everything before it is undone.
    const list = [...mutations(), { key: ["t", "huge"], value: new Uint8Array(70_000) }];
    await assert.rejects(journal.run(list));
    assert.deepEqual(await dump(kv), before);
  });
});

Deno.test("a restore that died on one instance is rolled back by another's periodic repair, which never waits", async () => {
  await using t = await createTestApp();
  const kv = t.kv;
  await seed(kv);
  const before = await dump(kv);
  await crashDuring(kv, "applying");
  // While the dead owner's heartbeat is fresh, the repair answers "busy" at once: it does not
  // wait for the heartbeat to go stale, as the check before serving does.
  assert.equal(await t.services.backup.repairDeadRestore(), "busy");
  await ageMarker(kv);
  assert.equal(await t.services.backup.repairDeadRestore(), "applying");
  assert.deepEqual(await dump(kv), before);
  assert.equal(await t.services.backup.repairDeadRestore(), "none");
});
