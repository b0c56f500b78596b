import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";

async function localConfigId(t: TestApp): Promise<string> {
  const list = await (await t.request("/api/s3-configs", { auth: await t.adminAuth() })).json();
  return list.data[0].id;
}

async function createMount(t: TestApp, fields: Record<string, unknown>) {
  const res = await t.request("/api/mount/create", {
    method: "POST",
    auth: await t.adminAuth(),
    json: {
      name: "Docs",
      storage_type: "local",
      storage_config_id: await localConfigId(t),
      ...fields,
    },
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("mounts: create, list, update, delete, and the config they use cannot be deleted", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const made = await createMount(t, { mount_path: "/docs/", remark: "team docs" });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const m = made.body.data;
  assert.equal(m.mount_path, "/docs");
  assert.equal(m.cache_ttl, 300);
  assert.equal(m.webdav_policy, "302_redirect");
  assert.equal(m.is_active, true);

  const list = (await (await t.request("/api/mount/list", { auth: admin })).json()).data;
  assert.equal(list.length, 1);

  const upd = await t.request(`/api/mount/${m.id}`, {
    method: "PUT",
    auth: admin,
    json: { name: "文档", mount_path: "/文档", is_active: false, webdav_policy: "native_proxy" },
  });
  const updated = (await upd.json()).data;
  assert.equal(upd.status, 200);
  assert.deepEqual([updated.name, updated.mount_path, updated.is_active], [
    "文档",
    "/文档",
    false,
  ]);

  const cfg = await localConfigId(t);
  const inUse = await t.request(`/api/s3-configs/${cfg}`, { method: "DELETE", auth: admin });
  assert.equal(inUse.status, 409);
  await inUse.body?.cancel();

  assert.equal(
    (await t.request(`/api/mount/${m.id}`, { method: "DELETE", auth: admin })).status,
    200,
  );
  const missing = await t.request(`/api/mount/${m.id}`, { method: "DELETE", auth: admin });
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("mount validation follows docs/PRODUCT.md §5.1, and mount paths never overlap", async () => {
  await using t = await createTestApp();
  const cases: [string, Record<string, unknown>, number, string][] = [
    ["empty name", { name: "", mount_path: "/a" }, 400, "mount_name_invalid"],
    ["long name", { name: "x".repeat(51), mount_path: "/a" }, 400, "mount_name_invalid"],
    ["relative path", { mount_path: "a" }, 400, "mount_path_invalid"],
    ["bad characters", { mount_path: "/a b" }, 400, "mount_path_invalid"],
    ["dots", { mount_path: "/a/../b" }, 400, "mount_path_invalid"],
    ["root", { mount_path: "/" }, 400, "mount_path_invalid"],
    ["reserved", { mount_path: "/api/x" }, 400, "mount_path_reserved"],
    ["negative TTL", { mount_path: "/a", cache_ttl: -1 }, 400, "cache_ttl_invalid"],
    ["TTL too big", { mount_path: "/a", cache_ttl: 86401 }, 400, "cache_ttl_invalid"],
    ["fractional TTL", { mount_path: "/a", cache_ttl: 1.5 }, 400, "cache_ttl_invalid"],
    [
      "missing config",
      { mount_path: "/a", storage_config_id: "nope" },
      404,
      "storage_config_not_found",
    ],
  ];
  for (const [label, fields, status, code] of cases) {
    const res = await createMount(t, fields);
    assert.equal(res.status, status, label);
    assert.equal(res.body.error, code, label);
  }
  assert.equal((await createMount(t, { mount_path: "/team/a", cache_ttl: 0 })).status, 201);
  for (const path of ["/team/a", "/team", "/team/a/b", "/TEAM/a/../a"]) {
    const res = await createMount(t, { mount_path: path });
    assert.ok(res.status === 409 || res.status === 400, `${path}: ${res.status}`);
  }
  assert.equal((await createMount(t, { mount_path: "/team/ab" })).status, 201, "separator-aware");
});

Deno.test("access: key users list only active mounts that touch their base path and change nothing", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const a = (await createMount(t, { name: "A", mount_path: "/a" })).body.data;
  await createMount(t, { name: "AB", mount_path: "/ab" });
  await createMount(t, { name: "Off", mount_path: "/a2", is_active: false });
  const keyA = (await t.createKey({ mount_view: true }, { basic_path: "/a/sub" })).auth;
  const keyRoot = (await t.createKey({ mount_view: true, mount_upload: true })).auth;
  const keyText = (await t.createKey({ text: true })).auth;

  const names = async (auth: string) =>
    ((await (await t.request("/api/mount/list", { auth })).json()).data as { name: string }[])
      .map((m) => m.name);
  assert.deepEqual(await names(keyA), ["A"], "/a/sub touches /a but not /ab");
  assert.deepEqual(await names(keyRoot), ["A", "AB"], "inactive mounts are hidden from keys");
  assert.deepEqual(await names(admin), ["A", "AB", "Off"]);

  const table: [string, string, unknown, Record<string, number>][] = [
    ["GET", "/api/mount/list", undefined, { anon: 401, keyText: 403, keyRoot: 200, admin: 200 }],
    ["POST", "/api/mount/create", { name: "x" }, {
      anon: 401,
      keyText: 403,
      keyRoot: 403,
      admin: 400,
    }],
    ["PUT", `/api/mount/${a.id}`, { is_active: false }, {
      anon: 401,
      keyText: 403,
      keyRoot: 403,
      admin: 200,
    }],
    ["DELETE", `/api/mount/${a.id}`, undefined, {
      anon: 401,
      keyText: 403,
      keyRoot: 403,
      admin: 200,
    }],
  ];
  const roles: Record<string, string | undefined> = { anon: undefined, keyText, keyRoot, admin };
  for (const [method, path, json, expected] of table) {
    for (const [role, status] of Object.entries(expected)) {
      const res = await t.request(path, { method, auth: roles[role], json });
      assert.equal(res.status, status, `${role} ${method} ${path}`);
      await res.body?.cancel();
    }
  }
});
