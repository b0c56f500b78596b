/**
 * Requests exactly as CloudPaste 0.8.1's frontend sends them (issue 11): API keys, logout,
 * storage configs, mounts, settings and backup. Each test checks the effect through the API.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";

Deno.test("API keys: bitmask permissions, custom_key null, expires_at never", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  // The create payload of docs/PRODUCT.md §3.4, in its field order, with the bitmask
  // TEXT|FILE_SHARE.
  const created = await t.call("POST", "/api/admin/api-keys", admin, {
    name: "script",
    expires_at: null,
    permissions: 3,
    role: "GENERAL",
    custom_key: null,
    basic_path: "/",
    is_guest: 0,
  });
  assert.equal(created.status, 201, created.text);
  const keyAuth = `ApiKey ${created.body.data.key}`;
  const check = await t.call("GET", "/api/test/api-key", keyAuth);
  assert.equal(check.status, 200);
  assert.equal(check.body.data.permission_mask, 3);
  assert.equal(check.body.data.permissions.text, true);
  assert.equal(check.body.data.permissions.file, true);
  assert.equal(check.body.data.permissions.mount_view, false);
  // The key really may share text and may not list mounts.
  assert.equal((await t.call("POST", "/api/paste", keyAuth, { content: "hi" })).status, 201);
  assert.equal((await t.call("GET", "/api/mount/list", keyAuth)).status, 403);

  // Mount bits as one integer (MOUNT_VIEW|MOUNT_UPLOAD), and "never" as the expiry.
  const id = created.body.data.id;
  const updated = await t.call("PUT", `/api/admin/api-keys/${id}`, admin, {
    name: "script",
    expires_at: "never",
    permissions: 768,
  });
  assert.equal(updated.status, 200, updated.text);
  const list = await t.call("GET", "/api/admin/api-keys", admin);
  const row = list.body.data.find((k: { id: string }) => k.id === id);
  assert.equal(row.permission_mask, 768);
  assert.equal(row.permissions.mount_view, true);
  assert.equal(row.permissions.mount_upload, true);
  assert.equal(row.permissions.text, false);
  assert.equal(row.expires_at, null);
  assert.equal((await t.call("GET", "/api/mount/list", keyAuth)).status, 200);
  assert.equal((await t.call("POST", "/api/paste", keyAuth, { content: "x" })).status, 403);

  // A date first, then "never" clears it again.
  const soon = new Date(Date.now() + 86_400_000).toISOString();
  await t.call("PUT", `/api/admin/api-keys/${id}`, admin, { expires_at: soon });
  await t.call("PUT", `/api/admin/api-keys/${id}`, admin, { expires_at: "never" });
  const again = await t.call("GET", "/api/test/api-key", keyAuth);
  assert.equal(again.body.data.expires_at, null);

  // Unknown bits and negative masks are refused.
  for (const permissions of [1 << 20, -1, 1.5]) {
    const bad = await t.call("POST", "/api/admin/api-keys", admin, { name: "b", permissions });
    assert.equal(bad.status, 400, `mask ${permissions}`);
    assert.equal(bad.body.error, "validation_failed");
  }
});

Deno.test("logout is idempotent: an expired or unknown token answers 200", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  assert.equal((await t.call("POST", "/api/admin/logout", admin)).status, 200);
  // The same (now revoked) token, an unknown one and no header at all.
  for (const auth of [admin, "Bearer not-a-session", undefined]) {
    const again = await t.call("POST", "/api/admin/logout", auth);
    assert.equal(again.status, 200, String(auth));
    assert.equal(again.body.success, true);
  }
  assert.equal((await t.call("GET", "/api/test/admin-token", admin)).status, 401);
});

Deno.test("storage configs: CloudPaste's provider names are aliases", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const names: [string, string][] = [
    ["Cloudflare R2", "r2"],
    ["Backblaze B2", "b2"],
    ["AWS S3", "aws"],
    ["Aliyun OSS", "aliyun_oss"],
    ["Other", "other"],
    ["Other S3 Compatible", "other"],
  ];
  for (const [i, [given, code]] of names.entries()) {
    const res = await t.call("POST", "/api/s3-configs", admin, {
      name: `cfg ${i}`,
      provider_type: given,
      endpoint_url: "https://s3.example.com",
      bucket_name: "bucket",
      region: "auto",
      access_key_id: "AKIAEXAMPLE",
      secret_access_key: "secret",
      path_style: false,
    });
    assert.equal(res.status, 201, `${given}: ${res.text}`);
    const read = await t.call("GET", `/api/s3-configs/${res.body.data.id}`, admin);
    assert.equal(read.body.data.provider_type, code, given);
  }
  const bad = await t.call("POST", "/api/s3-configs", admin, {
    name: "x",
    provider_type: "Dropbox",
    bucket_name: "b",
    access_key_id: "a",
    secret_access_key: "s",
  });
  assert.equal(bad.status, 400);
});

Deno.test("mounts: storage_type S3 in any case and sign_expires null", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const local = (await t.call("GET", "/api/s3-configs", admin)).body.data[0];
  for (const [i, storageType] of ["S3", "s3"].entries()) {
    const res = await t.call("POST", "/api/mount/create", admin, {
      name: `m${i}`,
      storage_type: storageType,
      storage_config_id: local.id,
      mount_path: `/m${i}`,
      remark: "",
      is_active: true,
      sort_order: 0,
      cache_ttl: 300,
      web_proxy: false,
      webdav_policy: "302_redirect",
      enable_sign: false,
      sign_expires: null,
    });
    assert.equal(res.status, 201, res.text);
  }
  const list = (await t.call("GET", "/api/mount/list", admin)).body.data;
  assert.deepEqual(list.map((m: { mount_path: string }) => m.mount_path).sort(), ["/m0", "/m1"]);
  // A mount on the default local storage is stored as what it is.
  assert.ok(list.every((m: { storage_type: string }) => m.storage_type === "local"));
  assert.ok(list.every((m: { sign_expires: number }) => m.sign_expires === 0));
  const upd = await t.call("PUT", `/api/mount/${list[0].id}`, admin, {
    storage_type: "S3",
    sign_expires: null,
    cache_ttl: "60",
  });
  assert.equal(upd.status, 200, upd.text);
  assert.equal(upd.body.data.cache_ttl, 60);
});

Deno.test("settings: file_naming_strategy is an alias; the public group is open to all", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true });
  const saved = await t.call("PUT", "/api/admin/settings/group/1", admin, {
    max_upload_size: 250,
    file_naming_strategy: "random_suffix",
  });
  assert.equal(saved.status, 200, saved.text);
  const group = (await t.call("GET", "/api/admin/settings?group=1", admin)).body.data;
  const value = (k: string) => group.find((e: { key: string }) => e.key === k)?.value;
  assert.equal(value("max_upload_size"), 250);
  assert.equal(value("file_overwrite_mode"), "rename");
  const limit = await t.call("GET", "/api/system/max-upload-size");
  assert.equal(limit.body.data.max_upload_size, 250);

  await t.call("PUT", "/api/admin/settings/group/4", admin, { site_title: "Clipboard" });
  for (const auth of [undefined, key.auth, admin]) {
    const site = await t.call("GET", "/api/admin/settings?group=4", auth);
    assert.equal(site.status, 200, String(auth));
    const title = site.body.data.find((e: { key: string }) => e.key === "site_title");
    assert.equal(title.value, "Clipboard");
  }
  assert.equal((await t.call("GET", "/api/admin/settings?group=1")).status, 401);
  assert.equal((await t.call("GET", "/api/admin/settings?group=1", key.auth)).status, 403);
  assert.equal((await t.call("GET", "/api/admin/settings")).status, 401);
});

Deno.test("backup: modules endpoint, backup_type full/modules, restore field backup_file", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const modules = await t.call("GET", "/api/admin/backup/modules", admin);
  assert.equal(modules.status, 200);
  const ids = modules.body.data.modules.map((m: { id: string }) => m.id);
  assert.ok(ids.includes("text_management") && ids.includes("system_settings"));
  assert.equal((await t.call("GET", "/api/admin/backup/modules")).status, 401);

  const paste = await t.call("POST", "/api/paste", admin, { content: "kept", slug: "kept" });
  assert.equal(paste.status, 201);
  const full = await t.call("POST", "/api/admin/backup/create", admin, { backup_type: "full" });
  assert.equal(full.status, 200, full.text);
  assert.equal(full.body.metadata.type, "full");
  assert.deepEqual([...full.body.metadata.modules].sort(), [...ids].sort());
  const some = await t.call("POST", "/api/admin/backup/create", admin, {
    backup_type: "modules",
    selected_modules: ["text_management"],
  });
  assert.equal(some.status, 200, some.text);
  assert.deepEqual(some.body.metadata.modules, ["text_management"]);
  const none = await t.call("POST", "/api/admin/backup/create", admin, {
    backup_type: "modules",
    selected_modules: [],
  });
  assert.equal(none.body.error, "backup_no_modules");

  await t.call("DELETE", "/api/pastes/batch-delete", admin, { ids: [paste.body.data.id] });
  assert.equal((await t.call("GET", "/api/paste/kept")).status, 404);
  const form = new FormData();
  form.append("backup_file", new File([some.text], "backup.json"));
  form.append("mode", "merge");
  const restored = await t.request("/api/admin/backup/restore", {
    method: "POST",
    auth: admin,
    body: form,
  });
  assert.equal(restored.status, 200, await restored.clone().text());
  await restored.body?.cancel();
  assert.equal((await t.call("GET", "/api/paste/kept")).body.data.content, "kept");
});
