import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";

Deno.test("key lifecycle: create shows the key once, list masks it, the key authenticates", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const created = await t.call("POST", "/api/admin/api-keys", admin, {
    name: "scripts",
    permissions: { text: true, mount_view: true },
    basic_path: "/docs/",
    expires_at: null,
    is_guest: 0,
  });
  assert.equal(created.status, 201);
  const key = created.body.data;
  assert.match(key.key, /^cb_[0-9A-Za-z]{32}$/);
  assert.equal(key.basic_path, "/docs");
  assert.equal(key.permission_mask, 1 | 256);

  const list = (await t.call("GET", "/api/admin/api-keys", admin)).body;
  assert.equal(list.data.length, 1);
  assert.equal(list.data[0].key, undefined);
  assert.ok(!JSON.stringify(list).includes(key.key), "the full key never appears again");
  assert.ok(list.data[0].key_masked.startsWith(key.key.slice(0, 6)));

  const info = await t.call("GET", "/api/test/api-key", `ApiKey ${key.key}`);
  assert.equal(info.status, 200);
  const data = info.body.data;
  assert.deepEqual(data.key_info, { id: key.id, name: "scripts", basic_path: "/docs" });
  assert.equal(data.permissions.text, true);
  assert.equal(data.permissions.file, false);

  const used = (await t.call("GET", "/api/admin/api-keys", admin)).body;
  assert.ok(used.data[0].last_used, "last_used is recorded");

  const upd = await t.call("PUT", `/api/admin/api-keys/${key.id}`, admin, {
    name: "renamed",
    permissions: { file: true },
  });
  assert.equal(upd.status, 200);
  const updated = upd.body.data;
  assert.equal(updated.name, "renamed");
  assert.equal(updated.permission_mask, 2);

  const del = await t.call("DELETE", `/api/admin/api-keys/${key.id}`, admin);
  assert.equal(del.status, 200);
  const gone = await t.call("GET", "/api/test/api-key", `ApiKey ${key.key}`);
  assert.equal(gone.status, 401);
  assert.equal(gone.body.error, "api_key_invalid");
  const again = await t.call("DELETE", `/api/admin/api-keys/${key.id}`, admin);
  assert.equal(again.status, 404);
});

Deno.test("custom keys, duplicate keys and names, and invalid payloads", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const post = (json: unknown) =>
    t.request("/api/admin/api-keys", { method: "POST", auth: admin, json });
  const own = "my-own_key-123_long-enough-to-be-safe";
  const custom = await post({ name: "custom", custom_key: own });
  assert.equal(custom.status, 201);
  assert.equal((await custom.json()).data.key, own);
  assert.equal((await post({ name: "other", custom_key: own })).status, 409);
  const dupName = await post({ name: "custom" });
  assert.equal(dupName.status, 409);
  assert.equal((await dupName.json()).error, "api_key_name_exists");

  const invalid: [string, unknown][] = [
    ["no name", {}],
    ["blank name", { name: "  " }],
    ["bad custom key", { name: "x", custom_key: "has space!" }],
    ["bad expiry", { name: "x", expires_at: "tomorrow" }],
    ["permissions not booleans", { name: "x", permissions: { text: "yes" } }],
    ["relative base path", { name: "x", basic_path: "docs" }],
    ["traversal base path", { name: "x", basic_path: "/a/../b" }],
  ];
  for (const [label, json] of invalid) {
    const res = await post(json);
    assert.equal(res.status, 400, label);
    assert.equal((await res.json()).success, false, label);
  }
  const past = await post({ name: "past", expires_at: "2000-01-01T00:00:00Z" });
  assert.equal((await past.json()).error, "expires_at_invalid");
});

Deno.test("refusals name their field: a duplicate name at name, a bad base path by what is wrong", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const post = (json: unknown) =>
    t.request("/api/admin/api-keys", { method: "POST", auth: admin, json, lang: "en-US" });
  assert.equal((await post({ name: "twin" })).status, 201);
  const dup = await (await post({ name: "twin" })).json();
  assert.deepEqual(dup.data.fields, { name: "api_key_name_exists" });

  const paths: [string, string, string][] = [
    ["/../etc", "base_path_dot_segment", "The base path must not contain . or .. segments"],
    ["/a/./b", "base_path_dot_segment", "The base path must not contain . or .. segments"],
    ["docs", "base_path_not_absolute", "The base path must start with /"],
    ["/a\\b", "base_path_backslash", "The base path must not contain backslashes (\\); use /"],
  ];
  for (const [path, code, message] of paths) {
    const res = await post({ name: `p-${code}`, basic_path: path });
    const body = await res.json();
    assert.equal(res.status, 400, path);
    assert.equal(body.error, code, path);
    assert.equal(body.message, message, path);
    assert.deepEqual(body.data.fields, { basic_path: code }, path);
  }
});

Deno.test("an expired key is refused", async () => {
  await using t = await createTestApp();
  const soon = new Date(Date.now() + 800).toISOString();
  const { auth } = await t.createKey({ text: true }, { expires_at: soon });
  assert.equal((await t.request("/api/test/api-key", { auth })).status, 200);
  await new Promise((r) => setTimeout(r, 900));
  const res = await t.request("/api/test/api-key", { auth });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).error, "api_key_invalid");
});

Deno.test("access table: role → route → status for auth and key routes", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const text = (await t.createKey({ text: true })).auth;
  const noText = (await t.createKey({ file: true })).auth;
  const roles: Record<string, string | undefined> = {
    anonymous: undefined,
    admin,
    keyText: text,
    keyNoText: noText,
    forged: "ApiKey cb_notarealkey",
    badBearer: "Bearer not-a-session",
  };
  /** Expected statuses, one per role, in the order of `roles`. */
  const by = (...codes: number[]) =>
    Object.fromEntries(Object.keys(roles).map((role, i) => [role, codes[i]]));
  const table: [string, string, Record<string, number>][] = [
    ["GET", "/api/admin/api-keys", by(401, 200, 403, 403, 401, 401)],
    ["POST", "/api/admin/api-keys", by(401, 201, 403, 403, 401, 401)],
    ["GET", "/api/test/admin-token", by(401, 200, 403, 403, 401, 401)],
    ["GET", "/api/test/api-key", by(401, 401, 200, 200, 401, 401)],
    ["POST", "/api/admin/change-password", by(401, 400, 403, 403, 401, 401)],
    ["GET", "/api/health", by(200, 200, 200, 200, 200, 200)],
  ];
  let n = 0;
  for (const [method, path, expected] of table) {
    for (const [role, status] of Object.entries(expected)) {
      const json = method === "POST"
        ? (path.endsWith("api-keys") ? { name: `k${n++}` } : { currentPassword: "" })
        : undefined;
      const res = await t.request(path, { method, auth: roles[role], json });
      assert.equal(res.status, status, `${role} ${method} ${path}`);
      await res.body?.cancel();
    }
  }
});
