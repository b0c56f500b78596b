import assert from "node:assert/strict";
import { BackupScheduleRepo } from "./backup_schedule_repo.ts";
import type { BackupRun, StoredBackupSchedule } from "../../shared/schemas/backup_schedule.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

function run(slot: string, status: BackupRun["status"] = "running"): BackupRun {
  return {
    slot,
    trigger: "schedule",
    status,
    started_at: slot,
    finished_at: null,
    modules: ["system_settings"],
    storage_config_id: "cfg",
    file: null,
    size: null,
    verified: null,
    error: null,
    pruned: false,
  };
}

Deno.test("backup runs: a slot is claimed by one instance of many", async () => {
  await using t = await tempKv();
  const repos = [1, 2, 3, 4].map(() => new BackupScheduleRepo(t.kv));
  const claimed = await Promise.all(repos.map((r) => r.claim(run("2026-03-01T02:00:00.000Z"))));
  assert.equal(claimed.filter(Boolean).length, 1);
  assert.equal(await repos[0].claim(run("2026-03-01T02:00:00.000Z")), false, "also later");
});

Deno.test("backup runs: saved outcomes, listed newest first up to a limit", async () => {
  await using t = await tempKv();
  const repo = new BackupScheduleRepo(t.kv);
  assert.equal(await repo.getSchedule(), null);
  const schedule: StoredBackupSchedule = {
    enabled: true,
    frequency: "daily",
    weekday: 1,
    time: "02:00",
    timezone: "Asia/Shanghai",
    modules: ["system_settings"],
    storage_config_id: "cfg",
    keep: 3,
    updated_at: "2026-03-01T00:00:00.000Z",
  };
  await repo.putSchedule(schedule);
  assert.deepEqual(await repo.getSchedule(), schedule);
  for (const day of ["01", "02", "03"]) await repo.claim(run(`2026-03-${day}T02:00:00.000Z`));
  await repo.save(run("2026-03-02T02:00:00.000Z", "succeeded"));
  assert.equal((await repo.get("2026-03-02T02:00:00.000Z"))?.status, "succeeded");
  assert.equal(await repo.get("2026-04-01T02:00:00.000Z"), null);
  assert.deepEqual((await repo.list(2)).map((r) => r.slot.slice(8, 10)), ["03", "02"]);
  assert.equal((await repo.list()).length, 3);
});
