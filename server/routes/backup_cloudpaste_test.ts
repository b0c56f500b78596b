/** Importing a CloudPaste backup (tests/fixtures/cloudpaste_backup.json, written by hand). */
import assert from "node:assert/strict";
import { ADMIN, createTestApp, type TestApp } from "../../tests/helpers/app.ts";

const FIXTURE = await Deno.readTextFile(
  new URL("../../tests/fixtures/cloudpaste_backup.json", import.meta.url),
);

type Json = Record<string, unknown>;

async function data(res: Response, status = 200) {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text).data;
}

const post = (t: TestApp, path: string, auth: string | undefined, body: string) =>
  t.request(path, { method: "POST", auth, body });

Deno.test("a CloudPaste backup is recognised, checked and mapped onto Cubby's records", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const info = await data(await post(t, "/api/admin/backup/validate", admin, FIXTURE));
  assert.equal(info.format, "cloudpaste");
  assert.equal(info.checksum, "5239b09c58078fbf");
  assert.equal(info.created_at, "2025-06-01T08:00:00.000Z");
  assert.deepEqual(info.counts, {
    text_management: 4,
    file_management: 1,
    mount_management: 1,
    storage_config: 1,
    key_management: 2,
    account_management: 0,
    system_settings: 5,
  });

  const report = await data(
    await post(t, "/api/admin/backup/restore?mode=merge", admin, FIXTURE),
  );
  assert.equal(report.format, "cloudpaste");
  assert.deepEqual(report.modules.text_management, { restored: 4, skipped: 1, removed: 0 });
  assert.deepEqual(report.modules.file_management, { restored: 1, skipped: 1, removed: 0 });
  assert.deepEqual(report.modules.system_settings, { restored: 5, skipped: 1, removed: 0 });
  const reasons = report.skipped.map((s: Json) => `${s.module}:${s.id}:${s.reason}`).sort();
  assert.deepEqual(reasons, [
    "file_management:orphan:missing_storage_config",
    "system_settings:cloudpaste_only_setting:unknown_setting",
    "text_management:bad slug!:invalid_slug",
  ]);
  const notes = report.notes.map((n: Json) => `${n.module}:${n.code}:${n.count}`).sort();
  assert.deepEqual(notes, [
    "account_management:admin_not_imported:1",
    "key_management:key_disabled:1",
    "storage_config:storage_secret_missing:1",
    "text_management:password_reset_required:1",
  ]);
  assert.equal(report.sessions_revoked, false, "the admin account is not replaced");

  // Pastes: content, views, order by creation time, passwords carried over or locked.
  const pastes = (await data(await t.request("/api/pastes?limit=100", { auth: admin }))).items;
  assert.deepEqual(pastes.map((p: Json) => p.slug), [
    "from-key",
    "lost-password",
    "with-password",
    "welcome",
  ]);
  const welcome = pastes.find((p: Json) => p.slug === "welcome");
  assert.deepEqual([welcome.views, welcome.remark, welcome.created_at], [
    3,
    "欢迎信息",
    "2025-05-01T10:00:00.000Z",
  ]);
  assert.match(await (await t.request("/api/raw/welcome")).text(), /^# 欢迎使用 CloudPaste！/);
  const opened = await data(
    await t.request("/api/paste/with-password", {
      method: "POST",
      json: { password: "cp-pass" },
    }),
  );
  assert.deepEqual([opened.content, opened.max_views, opened.expires_at], [
    "protected text",
    10,
    "2099-01-01T00:00:00.000Z",
  ]);
  const locked = await t.request("/api/paste/lost-password", {
    method: "POST",
    json: { password: "anything" },
  });
  assert.equal(locked.status, 401, "a password that could not be carried over locks the share");
  await locked.body?.cancel();

  // API keys work with the same key; a disabled one comes in expired.
  const keys = await data(await t.request("/api/admin/api-keys", { auth: admin }));
  const uploader = keys.find((k: Json) => k.name === "uploader");
  assert.deepEqual([uploader.permission_mask, uploader.expires_at, uploader.is_expired], [
    3,
    null,
    false,
  ]);
  const me = await data(
    await t.request("/api/test/api-key", {
      auth: "ApiKey cpkey_0123456789abcdefXYZ",
    }),
  );
  assert.equal(me.key_info.name, "uploader");
  assert.equal(
    pastes.find((p: Json) => p.slug === "from-key").created_by,
    `apikey:${uploader.id}`,
  );
  const off = await t.request("/api/test/api-key", { auth: "ApiKey cpkey_disabled_key_000" });
  assert.equal(off.status, 401);
  await off.body?.cancel();

  // Storage: the bucket without its secrets, the default; the file and the mount point at it.
  const configs = await data(await t.request("/api/s3-configs", { auth: admin }));
  const r2 = configs.find((c: Json) => c.provider_type === "r2");
  assert.deepEqual(
    [r2.name, r2.has_secret, r2.bucket_name, r2.is_default, r2.default_folder, r2.is_public],
    ["Cloudflare R2 存储", false, "my-cloudpaste-bucket", false, "uploads", true],
    "merge keeps the current default",
  );
  const files = (await data(await t.request("/api/files", { auth: admin }))).items;
  assert.deepEqual(
    files.map((f: Json) => [f.slug, f.storage_config_id, f.has_password, f.use_proxy, f.views]),
    [["report", r2.id, true, true, 7]],
  );
  const mounts = await data(await t.request("/api/mount/list", { auth: admin }));
  assert.deepEqual(
    mounts.map((m: Json) => [m.mount_path, m.storage_config_id, m.webdav_policy, m.cache_ttl]),
    [["/cloud", r2.id, "native_proxy", 600]],
  );

  // Settings are checked like an edit on the settings screen.
  const settings = await data(await t.request("/api/admin/settings", { auth: admin }));
  const value = (key: string) => settings.find((s: Json) => s.key === key)?.value;
  assert.deepEqual(
    [
      value("site_title"),
      value("max_upload_size"),
      value("webdav_upload_mode"),
      value("file_overwrite_mode"),
      value("proxy_sign_all"),
    ],
    ["CloudPaste 站点", 50, "multipart", "rename", false],
  );
  const relogin = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
  assert.equal(relogin.status, 200, "the current admin still logs in");
  await relogin.body?.cancel();
});

Deno.test("a CloudPaste backup with a wrong checksum is refused; overwrite makes its bucket the default", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const tampered = JSON.parse(FIXTURE);
  tampered.data.pastes[0].content = "changed";
  const res = await post(
    t,
    "/api/admin/backup/restore?mode=merge",
    admin,
    JSON.stringify(tampered),
  );
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error, "backup_checksum_mismatch");
  assert.equal((await data(await t.request("/api/pastes", { auth: admin }))).total, 0);

  const form = new FormData();
  form.set("file", new Blob([FIXTURE], { type: "application/json" }), "cloudpaste.json");
  form.set("mode", "overwrite");
  const report = await data(
    await t.request("/api/admin/backup/restore", { method: "POST", auth: admin, body: form }),
  );
  assert.equal(report.mode, "overwrite");
  assert.equal(report.modules.storage_config.removed, 1, "the unused local default is replaced");
  const configs = await data(await t.request("/api/s3-configs", { auth: admin }));
  assert.deepEqual(configs.map((c: Json) => [c.provider_type, c.is_default]), [["r2", true]]);
});
