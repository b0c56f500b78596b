/** Scheduled backups on a real app: slots claimed once, files written, checked and pruned. */
import assert from "node:assert/strict";
import { backupObjectKey, RUN_STALE_MS, SLOT_GRACE_MS } from "./scheduled_backups.ts";
import { createPeerApp, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { AppError } from "../errors.ts";
import { adminAuth } from "../services/auth.ts";
import type { BackupRun, BackupSchedule } from "../../shared/schemas/backup_schedule.ts";
import { BackupScheduleRepo } from "./backup_schedule_repo.ts";

const HOUR = 3_600_000;

/** A daily schedule whose latest slot, seen at `now`, was an hour before it (UTC). */
async function dailyAt(t: TestApp, now: number, over: Partial<BackupSchedule> = {}) {
  const slot = new Date(now - HOUR);
  const configs = await t.services.storageConfigs.list(adminAuth());
  const schedule: BackupSchedule = {
    enabled: true,
    frequency: "daily",
    weekday: 1,
    time: slot.toISOString().slice(11, 16),
    timezone: "UTC",
    modules: ["key_management"],
    storage_config_id: configs[0].id,
    keep: 1,
    ...over,
  };
  await t.services.scheduledBackups.setSchedule(schedule);
  return schedule;
}

async function exists(t: TestApp, configId: string, key: string): Promise<boolean> {
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(configId),
  );
  return (await driver.head(key)) !== null;
}

Deno.test("backup object keys: per slot on the minute; manual runs to the millisecond", () => {
  assert.equal(
    backupObjectKey({ slot: "2026-03-04T02:00:00.000Z", trigger: "schedule" }),
    ".cubby-backups/cubby-backup-20260304-020000.json",
  );
  assert.equal(
    backupObjectKey({ slot: "2026-03-04T02:00:00.123Z", trigger: "manual" }),
    ".cubby-backups/cubby-backup-20260304-020000123-manual.json",
  );
});

Deno.test("scheduled backups: two instances tick at once; the slot runs once, checked", async () => {
  await using t = await createTestApp();
  await using peer = await createPeerApp(t);
  await t.createKey({ text: true }, { name: "ci" });
  const now = Date.now() + 2 * 24 * HOUR;
  const schedule = await dailyAt(t, now);
  const runs = await Promise.all([
    t.services.scheduledBackups.tick(now),
    peer.services.scheduledBackups.tick(now),
  ]);
  const ran = runs.filter((r) => r !== null);
  assert.equal(ran.length, 1);
  assert.equal(ran[0]!.status, "succeeded", JSON.stringify(ran[0]!.error));
  assert.equal(ran[0]!.verified, true);
  assert.ok(await exists(t, schedule.storage_config_id, ran[0]!.file!));
  assert.equal(await t.services.scheduledBackups.tick(now + 60_000), null, "claimed already");
  assert.equal(
    await t.services.scheduledBackups.tick(now - HOUR + SLOT_GRACE_MS + 1),
    null,
    "a slot missed by more than the grace is skipped",
  );
});

Deno.test("scheduled backups: older files beyond `keep` are pruned; a stale run shows as failed", async () => {
  await using t = await createTestApp();
  const schedule = await dailyAt(t, Date.now(), { keep: 1 });
  const first = await t.services.scheduledBackups.runNow();
  const second = await t.services.scheduledBackups.runNow();
  assert.equal(second.status, "succeeded");
  assert.equal(await exists(t, schedule.storage_config_id, first.file!), false);
  assert.ok(await exists(t, schedule.storage_config_id, second.file!));
  const listed = await t.services.scheduledBackups.runs();
  assert.deepEqual(listed.map((r) => [r.slot, r.pruned]), [[second.slot, false], [
    first.slot,
    true,
  ]]);
  // A run whose process died stays "running" in KV; seen long after, it is reported failed.
  await new BackupScheduleRepo(t.kv).claim({
    ...second,
    slot: "2026-01-01T00:00:00.000Z",
    status: "running",
    started_at: new Date().toISOString(),
  });
  const dead = (runs: BackupRun[]) => runs.find((r) => r.slot === "2026-01-01T00:00:00.000Z")!;
  assert.equal(dead(await t.services.scheduledBackups.runs()).status, "running");
  const later = dead(await t.services.scheduledBackups.runs(50, Date.now() + RUN_STALE_MS + 1));
  assert.deepEqual([later.status, later.error?.code], ["failed", "backup_run_interrupted"]);
});

Deno.test("scheduled backups: no schedule, a disabled one, or a missing storage", async () => {
  await using t = await createTestApp();
  const err = await t.services.scheduledBackups.runNow().then(() => null, (e) => e);
  assert.ok(err instanceof AppError && err.code === "backup_schedule_missing");
  assert.deepEqual(await t.services.scheduledBackups.view(), { schedule: null, next_run: null });
  const now = Date.now() + 2 * 24 * HOUR;
  await dailyAt(t, now, { enabled: false });
  assert.equal(await t.services.scheduledBackups.tick(now), null);
  assert.equal((await t.services.scheduledBackups.view()).next_run, null);
  const missing = await dailyAt(t, now, { storage_config_id: "nope" }).then(() => null, (e) => e);
  assert.ok(missing instanceof AppError && missing.status === 404, `${missing}`);
});
