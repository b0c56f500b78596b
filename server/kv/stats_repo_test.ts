import assert from "node:assert/strict";
import { countCreated, countDeleted, dayOf, lastDays, StatsRepo } from "./stats_repo.ts";
import { keys } from "./keys.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

const DAY = 86_400_000;

Deno.test("stats: days are UTC; lastDays ends today, oldest first", () => {
  assert.equal(dayOf("2026-03-01T23:59:59.999-01:00"), "2026-03-02");
  const now = Date.parse("2026-03-02T00:30:00Z");
  assert.deepEqual(lastDays(3, now), ["2026-02-28", "2026-03-01", "2026-03-02"]);
});

Deno.test("stats: totals are created minus deleted and never below zero", async () => {
  await using t = await tempKv();
  const stats = new StatsRepo(t.kv);
  await countCreated(t.kv.atomic(), "pastes", "2026-03-01T10:00:00Z").commit();
  await countCreated(t.kv.atomic(), "pastes", "2026-03-01T11:00:00Z").commit();
  await countCreated(t.kv.atomic(), "api_keys").commit();
  await countDeleted(t.kv.atomic(), "pastes").commit();
  await countDeleted(t.kv.atomic(), "files").commit();
  assert.deepEqual(await stats.totals(), { pastes: 1, files: 0, api_keys: 1, storage_configs: 0 });
  assert.deepEqual(await stats.daily(["2026-02-28", "2026-03-01"]), [
    { pastes: 0, files: 0 },
    { pastes: 2, files: 0 },
  ]);
  assert.equal(
    (await t.kv.get(keys.statsDaily(dayOf(Date.now()), "api_keys"))).value,
    null,
    "only pastes and files count per day",
  );
});

Deno.test("stats: usage of many configs, more than one read takes", async () => {
  await using t = await tempKv();
  const ids = Array.from({ length: 13 }, (_, i) => `c${i}`);
  await t.kv.atomic().sum(keys.storageUsage("c12"), 42n).commit();
  const usage = await new StatsRepo(t.kv).usage(ids);
  assert.equal(usage.size, 13);
  assert.equal(usage.get("c12"), 42);
  assert.equal(usage.get("c0"), 0);
});

Deno.test("stats: a recount rebuilds drifted totals and recent days, once per migration", async () => {
  await using t = await tempKv();
  const now = Date.parse("2026-03-31T12:00:00Z");
  const stats = new StatsRepo(t.kv);
  for (const [id, at] of [["p1", now], ["p2", now - DAY], ["p3", now - 40 * DAY]] as const) {
    await t.kv.set(keys.pastes(id), { created_at: new Date(at).toISOString() });
  }
  await t.kv.set(keys.files("f1"), { created_at: "not a date" });
  await t.kv.set(keys.storageConfigs("c1"), {});
  // Counters that drifted: an old deleted count that the recount must keep, and a day too low.
  await t.kv.set(keys.statsTotals("pastes", "deleted"), new Deno.KvU64(5n));
  await t.kv.set(keys.statsDaily("2026-03-31", "pastes"), new Deno.KvU64(0n));
  await t.kv.set(keys.statsDaily("2026-03-30", "pastes"), new Deno.KvU64(7n));
  const migration = { n: 1, name: "stats" };
  const totals = await stats.recount(migration, now);
  assert.deepEqual(totals, { pastes: 3, files: 1, api_keys: 0, storage_configs: 1 });
  assert.deepEqual(await stats.totals(), totals);
  assert.deepEqual(await stats.daily(["2026-03-30", "2026-03-31"]), [
    { pastes: 7, files: 0 },
    { pastes: 1, files: 0 },
  ], "days are only raised (a day also counts records deleted since)");
  assert.equal(await stats.hasMigration(1), true);
  assert.equal(await stats.recount(migration, now), null, "recorded: nothing to do");
  assert.equal(await stats.hasMigration(2), false);
});
