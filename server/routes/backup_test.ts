import assert from "node:assert/strict";
import {
  ADMIN,
  ALL_KEY_PERMISSIONS,
  createTestApp,
  type TestApp,
} from "../../tests/helpers/app.ts";
import { BACKUP_MODULES } from "../../shared/schemas/backup.ts";

const SECRET = { ENCRYPTION_SECRET: "backup-test-encryption-secret-0123456789" };
const ALL: string[] = [...BACKUP_MODULES];

type Json = Record<string, unknown>;

async function json(res: Response) {
  return await res.json() as { code: number; error?: string; data: Json & Json[] };
}

async function login(t: TestApp, password: string, username = ADMIN.username) {
  const res = await t.request("/api/admin/login", { method: "POST", json: { username, password } });
  const body = await json(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  return `Bearer ${body.data.token}`;
}

async function ok(res: Response, status = 200) {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text);
}

/** Makes a backup and returns its text. */
async function backup(t: TestApp, auth: string, modules = ALL): Promise<string> {
  const res = await t.request("/api/admin/backup/create", {
    method: "POST",
    auth,
    json: { modules },
  });
  assert.equal(res.status, 200);
  assert.match(
    res.headers.get("content-disposition") ?? "",
    /^attachment; filename="cubby-backup-\d{8}-\d{6}\.json"$/,
  );
  return await res.text();
}

function restore(t: TestApp, auth: string, text: string, mode: "overwrite" | "merge") {
  return t.request(`/api/admin/backup/restore?mode=${mode}`, { method: "POST", auth, body: text });
}

/** A 1 MB (and more) paste of multi-byte characters, cut across chunk boundaries. */
const BIG = "多字节🙂 text ÄÖÜ ".repeat(50_000);

/** Fills an app with data in every module. Returns the secrets a restore must keep working. */
async function populate(t: TestApp, admin: string) {
  const post = async (path: string, body: unknown, auth = admin) =>
    (await ok(await t.request(path, { method: "POST", auth, json: body }), 201)).data;
  await ok(
    await t.request("/api/admin/settings/group/4", {
      method: "PUT",
      auth: admin,
      json: { site_title: "Round trip", site_announcement_enabled: true },
    }),
  );
  await ok(
    await t.request("/api/admin/settings/group/1", {
      method: "PUT",
      auth: admin,
      json: { max_upload_size: 7 },
    }),
  );
  await post("/api/s3-configs", {
    name: "r2",
    provider_type: "r2",
    endpoint_url: "https://example.r2.cloudflarestorage.com",
    bucket_name: "bucket",
    access_key_id: "AKIAEXAMPLE",
    secret_access_key: "very-secret",
  });
  const configs = (await ok(await t.request("/api/s3-configs", { auth: admin }))).data;
  const local = configs.find((c: Json) => c.provider_type === "local").id;
  await ok(
    await t.request("/api/mount/create", {
      method: "POST",
      auth: admin,
      json: { name: "Docs", mount_path: "/docs", storage_type: "local", storage_config_id: local },
    }),
    201,
  );
  const key = await t.createKey({ text: true, file: true });
  await post("/api/paste", { content: BIG, slug: "big", remark: "一兆" });
  await post("/api/paste", { content: "secret text", slug: "locked", password: "pw-123" });
  await post("/api/paste", { content: "twice", slug: "limited", max_views: 3 });
  await ok(await t.request("/api/paste/limited"));
  const soon = new Date(Date.now() + 3_600_000).toISOString();
  await post("/api/paste", { content: "soon gone", slug: "expiring", expires_at: soon });
  await post("/api/paste", { content: "from a key", slug: "bykey" }, key.auth);
  for (const [name, query] of [["a.txt", "slug=file-a"], ["b.md", "slug=file-b&password=fpw"]]) {
    await ok(
      await t.request(`/api/upload-direct/${name}?${query}`, {
        method: "PUT",
        auth: admin,
        body: `contents of ${name}`,
      }),
      201,
    );
  }
  return { key };
}

/** Everything the API shows of every module, for comparing two instances. */
async function snapshot(t: TestApp, auth: string) {
  const get = async (path: string) => (await ok(await t.request(path, { auth }))).data;
  const pastes = await get("/api/pastes?limit=100");
  const contents: Record<string, unknown> = {};
  for (const p of pastes.items) contents[p.slug] = (await get(`/api/pastes/${p.id}`)).content;
  const configs = (await get("/api/s3-configs")).map((c: Json) => ({ ...c, root_dir: null }));
  const stats = await get("/api/admin/dashboard/stats");
  return {
    pastes,
    contents,
    files: await get("/api/files?limit=100"),
    configs,
    mounts: await get("/api/mount/list"),
    keys: await get("/api/admin/api-keys"),
    settings: await get("/api/admin/settings"),
    totals: [
      stats.total_pastes,
      stats.total_files,
      stats.total_api_keys,
      stats.total_storage_configs,
    ],
  };
}

Deno.test("backup routes: admin only", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = (await t.createKey(ALL_KEY_PERMISSIONS)).auth;
  const file = await backup(t, admin, ["system_settings"]);
  const routes: [string, string, unknown][] = [
    ["POST", "/api/admin/backup/create", { modules: ["system_settings"] }],
    ["GET", "/api/admin/backup/create?modules=system_settings", undefined],
    ["POST", "/api/admin/backup/validate", file],
    ["POST", "/api/admin/backup/restore?mode=merge", file],
    ["GET", "/api/admin/backup/status", undefined],
  ];
  for (const [method, path, body] of routes) {
    for (
      const [who, auth, expected] of [["anon", undefined, 401], ["key", key, 403], [
        "admin",
        admin,
        200,
      ]] as const
    ) {
      const res = await t.request(path, {
        method,
        auth,
        body: typeof body === "string" ? body : undefined,
        json: typeof body === "object" ? body : undefined,
      });
      assert.equal(res.status, expected, `${who} ${method} ${path}: ${await res.text()}`);
    }
  }
  const none = await t.request("/api/admin/backup/create", {
    method: "POST",
    auth: admin,
    json: { modules: [] },
  });
  assert.equal(none.status, 400);
  assert.equal((await json(none)).error, "backup_no_modules");
  const noMode = await t.request("/api/admin/backup/restore", {
    method: "POST",
    auth: admin,
    body: file,
  });
  assert.equal(noMode.status, 400);
  await noMode.body?.cancel();
});

Deno.test("backup → fresh instance → restore gives identical data in every module", async () => {
  await using a = await createTestApp(SECRET);
  await using b = await createTestApp({ ...SECRET, ADMIN_PASSWORD: "another-admin-pw-456" });
  const adminA = await a.adminAuth();
  const { key } = await populate(a, adminA);
  const file = await backup(a, adminA);
  const parsed = JSON.parse(file);
  assert.equal(parsed.metadata.type, "full");
  assert.equal(parsed.metadata.counts.text_management, 5);
  assert.equal(parsed.metadata.counts.file_management, 2);
  assert.ok(!file.includes("very-secret"), "storage secrets stay sealed");
  assert.ok(!file.includes(key.key), "API keys are exported as hashes");
  assert.ok(!file.includes(ADMIN.password), "no plaintext password");
  assert.ok(file.includes("pbkdf2-sha256$"), "the admin password hash is kept");
  const before = await snapshot(a, adminA);
  assert.deepEqual(
    [before.files.items.length, before.mounts.length, before.keys.length, before.configs.length],
    [2, 1, 1, 2],
  );
  assert.deepEqual(before.totals, [5, 2, 1, 2]);

  const adminB = await login(b, "another-admin-pw-456");
  const info = await ok(
    await b.request("/api/admin/backup/validate", { method: "POST", auth: adminB, body: file }),
  );
  assert.deepEqual(info.data.modules, ALL);
  assert.equal(info.data.counts.text_management, 5);
  const report = (await ok(await restore(b, adminB, file, "overwrite"))).data;
  assert.equal(report.sessions_revoked, true);
  assert.deepEqual(report.notes, []);
  assert.equal(report.modules.text_management.restored, 5);
  assert.equal(report.modules.storage_config.removed, 1, "B's own default config is replaced");

  // The old session ended with the account change; A's password now logs in on B.
  const gone = await b.request("/api/admin/backup/status", { auth: adminB });
  assert.equal(gone.status, 401);
  await gone.body?.cancel();
  const restoredAdmin = await login(b, ADMIN.password);
  const status = (await ok(await b.request("/api/admin/backup/status", { auth: restoredAdmin })))
    .data;
  assert.deepEqual([status.restoring, status.undo_entries], [false, 0]);

  const again = await backup(b, restoredAdmin);
  assert.equal(JSON.parse(again).metadata.checksum, parsed.metadata.checksum, "same data");
  const after = await snapshot(b, restoredAdmin);
  assert.deepEqual(after, before);
  assert.equal((after.contents as Record<string, string>).big, BIG);

  // What the records protect still works: the key, the share password, the view limit.
  assert.equal((await b.request("/api/test/api-key", { auth: key.auth })).status, 200);
  const wrong = await b.request("/api/paste/locked", { method: "POST", json: { password: "x" } });
  assert.equal(wrong.status, 401);
  await wrong.body?.cancel();
  const right = await ok(
    await b.request("/api/paste/locked", { method: "POST", json: { password: "pw-123" } }),
  );
  assert.equal(right.data.content, "secret text");
  assert.equal((await ok(await b.request("/api/paste/limited"))).data.views, 2);
  assert.equal(await (await b.request("/api/raw/big")).text(), BIG);
});

Deno.test("a tampered or malformed backup answers 400 and changes nothing", async () => {
  await using a = await createTestApp();
  await using b = await createTestApp();
  const adminA = await a.adminAuth();
  await populate(a, adminA);
  const file = await backup(a, adminA);
  const adminB = await b.adminAuth();
  await ok(
    await b.request("/api/paste", {
      method: "POST",
      auth: adminB,
      json: { content: "keep me", slug: "keep" },
    }),
    201,
  );
  const before = await snapshot(b, adminB);

  const changed = JSON.parse(file);
  changed.data.text_management[0].content = "tampered";
  const wrongSum = JSON.parse(file);
  wrongSum.metadata.checksum = "0".repeat(64);
  const future = JSON.parse(file);
  future.metadata.version = 2;
  const fewerCounts = JSON.parse(file);
  fewerCounts.metadata.counts.text_management = 1;
  const cases: [string, string, string][] = [
    ["changed content", JSON.stringify(changed), "backup_checksum_mismatch"],
    ["wrong checksum", JSON.stringify(wrongSum), "backup_checksum_mismatch"],
    ["future version", JSON.stringify(future), "backup_unsupported_version"],
    ["wrong counts", JSON.stringify(fewerCounts), "backup_invalid_file"],
    ["not JSON", file.slice(0, 500), "backup_parse_failed"],
    ["not a backup", JSON.stringify({ hello: "world" }), "backup_invalid_file"],
  ];
  for (const [what, text, code] of cases) {
    for (const mode of ["overwrite", "merge"] as const) {
      const res = await restore(b, adminB, text, mode);
      assert.equal(res.status, 400, what);
      assert.equal((await json(res)).error, code, what);
    }
    const check = await b.request("/api/admin/backup/validate", {
      method: "POST",
      auth: adminB,
      body: text,
    });
    assert.equal(check.status, 400, what);
    await check.body?.cancel();
  }
  const empty = await restore(b, adminB, "", "merge");
  assert.equal((await json(empty)).error, "backup_file_required");
  assert.deepEqual(await snapshot(b, adminB), before, "nothing changed");
});

Deno.test("merge adds what is free and reports the rest; overwrite replaces the module", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const create = async (slug: string, content: string) =>
    (await ok(
      await t.request("/api/paste", { method: "POST", auth: admin, json: { content, slug } }),
      201,
    )).data;
  const p1 = await create("one", "first");
  const p2 = await create("two", "second");
  const file = await backup(t, admin, ["text_management"]);
  assert.equal(JSON.parse(file).metadata.type, "partial");

  await ok(
    await t.request("/api/pastes/batch-delete", {
      method: "DELETE",
      auth: admin,
      json: { ids: [p1.id] },
    }),
  );
  await ok(
    await t.request(`/api/pastes/${p2.id}`, {
      method: "PUT",
      auth: admin,
      json: { content: "second, edited" },
    }),
  );
  await create("three", "third");
  await create("one-again", "x");

  const merged = (await ok(await restore(t, admin, file, "merge"))).data;
  assert.deepEqual(merged.modules.text_management, { restored: 1, skipped: 1, removed: 0 });
  assert.deepEqual(merged.skipped, [{
    module: "text_management",
    id: "two",
    reason: "id_exists",
  }]);
  const slugs = async () =>
    (await ok(await t.request("/api/pastes?limit=100", { auth: admin }))).data.items
      .map((p: Json) => p.slug).sort();
  assert.deepEqual(await slugs(), ["one", "one-again", "three", "two"]);
  assert.equal(await (await t.request("/api/raw/two")).text(), "second, edited");

  const replaced = (await ok(await restore(t, admin, file, "overwrite"))).data;
  assert.deepEqual(replaced.modules.text_management, { restored: 2, skipped: 0, removed: 4 });
  assert.deepEqual(await slugs(), ["one", "two"]);
  assert.equal(await (await t.request("/api/raw/two")).text(), "second");
  assert.equal(await (await t.request("/api/raw/one")).text(), "first");
  const gone = await t.request("/api/raw/three");
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  const chunks = [];
  for await (const e of t.kv.list({ prefix: ["paste_chunks"] })) chunks.push(e.key[1]);
  assert.equal(new Set(chunks).size, 2, "no orphaned content is left behind");
  const stats = (await ok(await t.request("/api/admin/dashboard/stats", { auth: admin }))).data;
  assert.equal(stats.total_pastes, 2, "the dashboard counters are recounted");
});

Deno.test("one restore at a time: a second one at the same moment answers 409", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await ok(
    await t.request("/api/paste", { method: "POST", auth: admin, json: { content: BIG } }),
    201,
  );
  const file = await backup(t, admin, ["text_management"]);
  const statuses = await Promise.all([
    restore(t, admin, file, "overwrite"),
    restore(t, admin, file, "overwrite"),
  ].map(async (p) => {
    const res = await p;
    const body = await json(res);
    return res.status === 409 ? body.error : res.status;
  }));
  assert.deepEqual(statuses.sort(), [200, "restore_in_progress"].sort());
  const after = (await ok(await t.request("/api/admin/backup/status", { auth: admin }))).data;
  assert.equal(after.restoring, false);
});
