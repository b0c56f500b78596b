import assert from "node:assert/strict";
import { ADMIN, createTestApp } from "../../tests/helpers/app.ts";

Deno.test("admin login returns a token that validates; logout revokes it", async () => {
  await using t = await createTestApp();
  const login = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
  assert.equal(login.status, 200);
  const body = await login.json();
  assert.equal(body.code, 200);
  assert.equal(body.success, true);
  assert.ok(body.data.token.length >= 43, "256-bit token");
  const auth = `Bearer ${body.data.token}`;

  const check = await t.request("/api/test/admin-token", { auth });
  assert.equal(check.status, 200);
  assert.equal((await check.json()).data.username, "admin");

  assert.equal((await t.request("/api/admin/logout", { method: "POST", auth })).status, 200);
  const after = await t.request("/api/test/admin-token", { auth });
  assert.equal(after.status, 401);
  assert.equal((await after.json()).error, "session_expired");
});

Deno.test("a wrong password answers 401, then 429 after repeated failures", async () => {
  await using t = await createTestApp();
  const bad = { username: "admin", password: "nope" };
  for (let i = 0; i < 5; i++) {
    const res = await t.request("/api/admin/login", { method: "POST", json: bad });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, "invalid_credentials");
  }
  const limited = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
  assert.equal(limited.status, 429);
  const body = await limited.json();
  assert.equal(body.error, "too_many_requests");
  assert.ok(body.data.seconds > 0);
});

Deno.test("login validates its body: missing fields, wrong types and bad JSON are 400", async () => {
  await using t = await createTestApp();
  const cases: [string, unknown][] = [
    ["missing", {}],
    ["wrong types", { username: 1, password: true }],
    ["empty", { username: "", password: "" }],
  ];
  for (const [name, json] of cases) {
    const res = await t.request("/api/admin/login", { method: "POST", json });
    assert.equal(res.status, 400, name);
    assert.equal((await res.json()).error, "validation_failed", name);
  }
  const badJson = await t.request("/api/admin/login", {
    method: "POST",
    body: "{not json",
    headers: { "content-type": "application/json" },
  });
  assert.equal(badJson.status, 400);
  assert.equal((await badJson.json()).error, "invalid_json");
});

Deno.test("messages follow Accept-Language (zh-CN by default)", async () => {
  await using t = await createTestApp();
  const zh = await t.request("/api/test/admin-token");
  assert.equal((await zh.json()).message, "未授权访问，请登录后重试");
  const en = await t.request("/api/test/admin-token", {
    headers: { "accept-language": "en-US,en;q=0.9" },
  });
  assert.equal((await en.json()).message, "Unauthorised, please log in and try again");
});

Deno.test("change-password checks the current password and revokes every session", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const url = "/api/admin/change-password";
  const wrong = await t.request(url, {
    method: "POST",
    auth,
    json: { currentPassword: "wrong", newPassword: "another-pass-1" },
  });
  assert.equal(wrong.status, 401);
  assert.equal((await wrong.json()).error, "wrong_current_password");

  const nothing = await t.request(url, {
    method: "POST",
    auth,
    json: { currentPassword: ADMIN.password },
  });
  assert.equal((await nothing.json()).error, "nothing_to_change");

  const same = await t.request(url, {
    method: "POST",
    auth,
    json: { currentPassword: ADMIN.password, newPassword: ADMIN.password },
  });
  assert.equal((await same.json()).error, "password_unchanged");

  const okRes = await t.request(url, {
    method: "POST",
    auth,
    json: { currentPassword: ADMIN.password, newPassword: "brand-new-pass", newUsername: "root" },
  });
  assert.equal(okRes.status, 200);
  assert.equal((await t.request("/api/test/admin-token", { auth })).status, 401);

  const oldLogin = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
  assert.equal(oldLogin.status, 401);
  const newLogin = await t.request("/api/admin/login", {
    method: "POST",
    json: { username: "root", password: "brand-new-pass" },
  });
  assert.equal(newLogin.status, 200);
});

Deno.test("unknown API routes answer 404 in the envelope", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/nope");
  assert.equal(res.status, 404);
  const body = await res.json();
  assert.deepEqual([body.code, body.error, body.success], [404, "route_not_found", false]);
  assert.ok(res.headers.get("x-request-id"));
});

Deno.test("health and version", async () => {
  await using t = await createTestApp();
  const health = await t.request("/api/health");
  assert.equal(health.status, 200);
  assert.equal((await health.json()).data.status, "ok");
  const version = await (await t.request("/api/version")).json();
  assert.equal(version.data.version, "0.8.1");
});
