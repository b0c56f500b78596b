import assert from "node:assert/strict";
import { ALL_KEY_PERMISSIONS, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { createServices } from "../container.ts";
import { keys } from "../kv/keys.ts";
import { dayOf } from "../kv/stats_repo.ts";
import type { DashboardStats } from "../services/stats.ts";
import { shareFile, sharePaste } from "../../tests/helpers/shares.ts";

async function stats(t: TestApp): Promise<DashboardStats> {
  const res = await t.request("/api/admin/dashboard/stats", { auth: await t.adminAuth() });
  assert.equal(res.status, 200);
  return (await res.json()).data;
}

const totalsOf = (s: DashboardStats) => ({
  pastes: s.total_pastes,
  files: s.total_files,
  api_keys: s.total_api_keys,
  storage_configs: s.total_storage_configs,
});

async function createPaste(t: TestApp, content = "hello"): Promise<string> {
  return (await sharePaste(t, { content })).id;
}

function upload(t: TestApp, size: number, fields: Record<string, string> = {}) {
  return shareFile(t, new Uint8Array(size).fill(7), `f-${size}.bin`, fields);
}

async function send(t: TestApp, method: string, path: string, json?: unknown) {
  const res = await t.request(path, { method, auth: await t.adminAuth(), json });
  const body = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${JSON.stringify(body)}`);
  return body.data;
}

Deno.test("dashboard totals move with creates and deletes through the API", async () => {
  await using t = await createTestApp();
  const fresh = await stats(t);
  // A fresh install has its default local storage config and nothing else.
  assert.deepEqual(totalsOf(fresh), { pastes: 0, files: 0, api_keys: 0, storage_configs: 1 });
  assert.equal(fresh.storage_used_bytes, 0);

  const pasteIds = [await createPaste(t), await createPaste(t), await createPaste(t)];
  const fileA = await upload(t, 1000);
  await upload(t, 2500);
  const key = await t.createKey({ text: true });
  const cfg = await t.createLocalConfig("second", { total_storage_bytes: 10_000 });
  assert.deepEqual(totalsOf(await stats(t)), {
    pastes: 3,
    files: 2,
    api_keys: 1,
    storage_configs: 2,
  });

  await send(t, "POST", "/api/pastes/batch-delete", { ids: pasteIds.slice(0, 2) });
  await send(t, "POST", "/api/files/batch-delete", { ids: [fileA.id], delete_mode: "both" });
  await send(t, "DELETE", `/api/admin/api-keys/${key.id}`);
  await send(t, "DELETE", `/api/s3-configs/${cfg.id}`);
  const after = await stats(t);
  assert.deepEqual(totalsOf(after), { pastes: 1, files: 1, api_keys: 0, storage_configs: 1 });
  assert.equal(after.storage_used_bytes, 2500);

  // Deleting what is already gone changes nothing.
  const again = await t.request(`/api/admin/api-keys/${key.id}`, {
    method: "DELETE",
    auth: await t.adminAuth(),
  });
  assert.equal(again.status, 404);
  await send(t, "POST", "/api/files/batch-delete", { ids: [fileA.id] });
  assert.deepEqual(totalsOf(await stats(t)), totalsOf(after));

  // The activity of today counts creates (deletes do not undo that a share was made today).
  const today = after.activity.at(-1)!;
  assert.equal(after.activity.length, 7);
  assert.equal(today.date, dayOf(Date.now()));
  assert.deepEqual({ pastes: today.pastes, files: today.files }, { pastes: 3, files: 2 });
  assert.ok(after.activity.slice(0, 6).every((d) => d.pastes === 0 && d.files === 0));
  assert.deepEqual(
    after.activity.map((d) => d.date),
    [...after.activity.map((d) => d.date)].sort(),
    "oldest first",
  );
});

Deno.test("concurrent deletes of one record count once", async () => {
  await using t = await createTestApp();
  const keyIds: string[] = [];
  for (let i = 0; i < 3; i++) keyIds.push((await t.createKey({ text: true })).id);
  const file = await upload(t, 4096);
  const admin = await t.adminAuth();
  await Promise.all([
    ...Array.from(
      { length: 5 },
      () =>
        t.request(`/api/admin/api-keys/${keyIds[0]}`, { method: "DELETE", auth: admin })
          .then((r) => r.body?.cancel()),
    ),
    ...Array.from({ length: 5 }, () =>
      t.request("/api/files/batch-delete", {
        method: "POST",
        auth: admin,
        json: { ids: [file.id], delete_mode: "record_only" },
      }).then((r) => r.body?.cancel())),
  ]);
  const s = await stats(t);
  assert.equal(s.total_api_keys, 2);
  assert.equal(s.total_files, 0);
  assert.equal(s.storage_used_bytes, 0);
});

Deno.test("per-bucket usage matches what was uploaded to each config, against its quota", async () => {
  await using t = await createTestApp();
  const second = await send(t, "POST", "/api/s3-configs", {
    name: "Quota box",
    provider_type: "local",
    root_dir: `${t.dir}/quota`,
    total_storage_bytes: 8000,
  });
  await upload(t, 1200);
  await upload(t, 300);
  await upload(t, 2000, { s3_config_id: second.id });
  const s = await stats(t);
  assert.equal(s.storage_used_bytes, 3500);
  const byName = new Map(s.buckets.map((b) => [b.name, b]));
  assert.deepEqual(
    { ...byName.get("本地存储")!, id: "" },
    {
      id: "",
      name: "本地存储",
      provider_type: "local",
      storage_type: "local",
      used_bytes: 1500,
      quota_bytes: null,
      percentage: null,
    },
  );
  const quota = byName.get("Quota box")!;
  assert.equal(quota.used_bytes, 2000);
  assert.equal(quota.quota_bytes, 8000);
  assert.equal(quota.percentage, 25);
});

Deno.test("migration 1 counts data written before the counters existed, once", async () => {
  await using t = await createTestApp();
  await createPaste(t, "one");
  await createPaste(t, "two");
  await upload(t, 100);
  await t.createKey({ file: true });
  const expected = totalsOf(await stats(t));
  assert.deepEqual(expected, { pastes: 2, files: 1, api_keys: 1, storage_configs: 1 });

  // Make the store look like one written by a version without counters.
  const kv = t.kv;
  for (const prefix of [["stats_totals"], ["stats_daily"]]) {
    for await (const e of kv.list({ prefix })) await kv.delete(e.key);
  }
  await kv.delete(keys.migrations(1));
  assert.deepEqual(totalsOf(await stats(t)), {
    pastes: 0,
    files: 0,
    api_keys: 0,
    storage_configs: 0,
  });

  const logs: string[] = [];
  const upgraded = await createServices(t.config, kv, (m) => logs.push(m));
  assert.ok(logs.some((m) => m.startsWith("Migration 1 applied")), logs.join("\n"));
  assert.ok((await kv.get(keys.migrations(1))).value, "the migration is recorded");
  const migrated = await upgraded.stats.dashboard();
  assert.deepEqual(totalsOf(migrated), expected);
  assert.deepEqual(
    { pastes: migrated.activity.at(-1)!.pastes, files: migrated.activity.at(-1)!.files },
    { pastes: 2, files: 1 },
  );

  // A second start does not count again, and new writes still count on top.
  const again = await createServices(t.config, kv, (m) => logs.push(m));
  assert.equal(await again.stats.migrate(), false);
  await createPaste(t, "three");
  assert.deepEqual(totalsOf(await again.stats.dashboard()), { ...expected, pastes: 3 });
  assert.equal(logs.filter((m) => m.startsWith("Migration 1 applied")).length, 1);
});

Deno.test("access: stats and cache routes answer 401 anonymous, 403 keys, 200 admin", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = (await t.createKey(ALL_KEY_PERMISSIONS)).auth;
  const table: [string, string, { none: number; key: number; admin: number }][] = [
    ["GET", "/api/admin/dashboard/stats", { none: 401, key: 403, admin: 200 }],
    ["GET", "/api/admin/cache/stats", { none: 401, key: 403, admin: 200 }],
    ["POST", "/api/admin/cache/clear", { none: 401, key: 403, admin: 200 }],
    ["POST", "/api/user/cache/clear", { none: 401, key: 200, admin: 200 }],
  ];
  for (const [method, path, want] of table) {
    for (const [role, auth] of [["none", undefined], ["key", key], ["admin", admin]] as const) {
      const res = await t.request(path, { method, auth });
      const body = await res.json();
      assert.equal(res.status, want[role], `${role} ${method} ${path}: ${JSON.stringify(body)}`);
      assert.equal(body.code, res.status);
    }
  }
  const expired = await t.request("/api/admin/dashboard/stats", { auth: "Bearer nope" });
  assert.equal(expired.status, 401);
});
