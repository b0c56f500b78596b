/**
 * Scheduled backups through the API and the tick: the schedule is checked, a due slot runs
 * once however many instances tick at the same moment, each backup lands under
 * `.cubby-backups/` (out of mounts' reach) and is checked by a restore into a scratch KV, only
 * the last `keep` stay, and a failure is recorded for the backup page and the dashboard.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createPeerApp, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { nextSlot } from "../backup/backup_slots.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import { pathExists } from "../../tests/helpers/temp.ts";

const SCHEDULE = {
  enabled: true,
  frequency: "daily",
  weekday: 1,
  time: "03:00",
  timezone: "UTC",
  modules: ["text_management", "system_settings"],
  keep: 2,
};

async function localConfigId(t: TestApp): Promise<string> {
  const res = await t.request("/api/s3-configs", { auth: await t.adminAuth() });
  return (await res.json()).data.find((c: { provider_type: string }) => c.provider_type === "local")
    .id;
}

async function putSchedule(t: TestApp, extra: Record<string, unknown> = {}) {
  const res = await t.request("/api/admin/backup/schedule", {
    method: "PUT",
    auth: await t.adminAuth(),
    lang: "en-US",
    json: { ...SCHEDULE, storage_config_id: await localConfigId(t), ...extra },
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("backup schedule: checked fields, and the next run", async () => {
  await using t = await createTestApp();
  const bad = await putSchedule(t, { time: "25:00" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, "backup_schedule_time_invalid");
  assert.deepEqual(Object.keys(bad.body.data.fields), ["time"]);
  assert.equal(
    (await putSchedule(t, { timezone: "Mars/Base" })).body.error,
    "backup_schedule_timezone_invalid",
  );
  assert.equal((await putSchedule(t, { modules: [] })).body.error, "backup_no_modules");
  assert.equal((await putSchedule(t, { storage_config_id: "nope" })).status, 404);
  const ok = await putSchedule(t);
  assert.equal(ok.status, 200);
  assert.match(ok.body.data.next_run, /T03:00:00\.000Z$/);
  assert.equal(ok.body.data.schedule.keep, 2);
});

Deno.test("a due slot runs once across instances, is checked, and lands out of mounts' reach", async () => {
  await using a = await createTestApp();
  await using b = await createPeerApp(a);
  const admin = await a.adminAuth();
  await a.request("/api/paste", { method: "POST", auth: admin, json: { content: "kept safe" } });
  const set = await putSchedule(a);
  assert.equal(set.status, 200);
  const due = Date.parse(set.body.data.next_run) + 60_000;

  // Both instances tick at the same moment: one claims the slot, the other leaves it.
  const [ra, rb] = await Promise.all([
    a.services.scheduledBackups.tick(due),
    b.services.scheduledBackups.tick(due),
  ]);
  const ran = [ra, rb].filter((r) => r !== null);
  assert.equal(ran.length, 1, "exactly one instance ran the slot");
  assert.equal(await a.services.scheduledBackups.tick(due + 60_000), null, "and only once");
  const run = ran[0]!;
  assert.equal(run.status, "succeeded", JSON.stringify(run.error));
  assert.equal(run.verified, true);
  assert.match(run.file!, /^\.cubby-backups\/cubby-backup-\d{8}-030000\.json$/);
  const onDisk = join(a.dir, "storage", run.file!);
  const file = JSON.parse(await Deno.readTextFile(onDisk));
  assert.equal(file.metadata.counts.text_management, 1);

  const runs = await a.request("/api/admin/backup/runs", { auth: admin });
  assert.deepEqual((await runs.json()).data.map((r: { slot: string }) => r.slot), [run.slot]);

  // A mount of that storage does not see the backups.
  await a.createMount("/all");
  const list = await a.request("/api/fs/list?path=/all&refresh=true", { auth: admin });
  const names = (await list.json()).data.items.map((i: { name: string }) => i.name);
  assert.ok(!names.some((n: string) => n.startsWith(".cubby")), names.join(","));
  const reach = await a.request(`/api/fs/get?path=${encodeURIComponent(`/all/${run.file}`)}`, {
    auth: admin,
  });
  assert.equal(reach.status, 403);
  await reach.body?.cancel();
});

Deno.test("only the last `keep` backups stay; a failed run is recorded with its reason", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  assert.equal((await putSchedule(t)).status, 200);
  const runNow = async () => {
    const res = await t.request("/api/admin/backup/runs", { method: "POST", auth: admin });
    assert.equal(res.status, 201);
    return (await res.json()).data;
  };
  const first = await runNow();
  await new Promise((r) => setTimeout(r, 5)); // distinct start times
  const second = await runNow();
  await new Promise((r) => setTimeout(r, 5));
  const third = await runNow();
  for (const r of [first, second, third]) assert.equal(r.status, "succeeded");
  assert.equal(await pathExists(join(t.dir, "storage", first.file)), false, "the oldest went");
  assert.equal(await pathExists(join(t.dir, "storage", second.file)), true);
  assert.equal(await pathExists(join(t.dir, "storage", third.file)), true);
  const listed = (await (await t.request("/api/admin/backup/runs", { auth: admin })).json()).data;
  assert.deepEqual(listed.map((r: { pruned: boolean }) => r.pruned), [false, false, true]);

  // A storage whose root is a file cannot take the backup: the run fails and says why.
  const blocker = join(t.dir, "not-a-folder");
  await Deno.writeTextFile(blocker, "x");
  const broken = await t.createStorageConfig({
    name: "broken",
    provider_type: "local",
    root_dir: blocker,
  });
  assert.equal((await putSchedule(t, { storage_config_id: broken.id })).status, 200);
  const failed = await runNow();
  assert.equal(failed.status, "failed");
  assert.ok(failed.error.code, JSON.stringify(failed));
  const latest = (await (await t.request("/api/admin/backup/runs?limit=1", { auth: admin }))
    .json()).data;
  assert.equal(latest[0].status, "failed");
});

Deno.test("a schedule set after today's slot waits for the next one", async () => {
  await using t = await createTestApp();
  const set = await putSchedule(t);
  const next = Date.parse(set.body.data.next_run);
  // Just before the next slot, the latest slot is yesterday's, before the schedule existed.
  assert.equal(await t.services.scheduledBackups.tick(next - 60_000), null);
  const s = (await t.services.scheduledBackups.view()).schedule!;
  assert.equal(nextSlot(s, next - 60_000), next);
});

Deno.test("a scheduled backup goes to an S3 storage config too (s3rver)", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const cfg = await t.createS3rverConfig(s3, { name: "Bucket" });
  assert.equal((await putSchedule(t, { storage_config_id: cfg.id })).status, 200);
  const res = await t.request("/api/admin/backup/runs", {
    method: "POST",
    auth: await t.adminAuth(),
  });
  const run = (await res.json()).data;
  assert.equal(run.status, "succeeded", JSON.stringify(run.error));
  assert.equal(run.verified, true);
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(cfg.id),
  );
  assert.equal((await driver.head(run.file))?.size, run.size);
});
