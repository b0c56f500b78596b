import assert from "node:assert/strict";
import { ADMIN, createTestApp } from "../../tests/helpers/app.ts";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "../config.ts";

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

Deno.test("wrong passwords answer 401 and slow the next attempts; the right one still gets in", async () => {
  await using t = await createTestApp();
  const bad = { username: "admin", password: "nope" };
  for (let i = 0; i < 5; i++) {
    const res = await t.request("/api/admin/login", { method: "POST", json: bad });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, "invalid_credentials");
  }
  const ok = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
  assert.equal(ok.status, 200);
  assert.ok((await ok.json()).data.token);
});

/** Two free logins per subject, and no waiting after them: the third attempt is refused. */
function strictLogins(): RateLimits {
  const login = { free: 2, delayMs: 60_000, maxDelayMs: 60_000, maxHoldMs: 0, forgetMs: 60_000 };
  return { ...structuredClone(DEFAULT_RATE_LIMITS), login };
}

Deno.test("a known device logs in at once while strangers at its address are refused", async () => {
  await using t = await createTestApp({}, { rateLimits: strictLogins() });
  const login = async (json: Record<string, unknown>) => {
    const res = await t.request("/api/admin/login", { method: "POST", json });
    return { status: res.status, body: await res.json() };
  };
  const first = await login(ADMIN);
  assert.equal(first.status, 200);
  const device = first.body.data.device_token;
  assert.match(device, /^[\w-]+\.\d+\.[\w-]+$/);

  // A stranger at the same address: two free failures, then every attempt is refused.
  const wrong = { username: ADMIN.username, password: "wrong" };
  const stranger = [];
  for (let i = 0; i < 5; i++) stranger.push((await login(wrong)).status);
  assert.deepEqual(stranger, [401, 401, 429, 429, 429]);
  assert.equal((await login(ADMIN)).status, 429, "without the device token");

  // The known browser is not slowed by them, and gets a fresh token.
  const known = await login({ ...ADMIN, device_token: device });
  assert.equal(known.status, 200);
  const renewed = known.body.data.device_token;
  assert.ok(renewed && renewed !== device);
  assert.ok(known.body.data.token);

  // A forged token counts for nothing (device_tokens_test.ts checks names and expiry).
  const forged = `${device.slice(0, device.lastIndexOf(".") + 1)}${"A".repeat(43)}`;
  assert.equal((await login({ ...ADMIN, device_token: forged })).status, 429);
  assert.equal((await login({ ...ADMIN, device_token: "junk" })).status, 429);

  // A device with too many failures of its own is no longer honoured.
  const withToken = { ...wrong, device_token: renewed };
  assert.equal((await login(withToken)).status, 401);
  assert.equal((await login(withToken)).status, 401);
  assert.equal((await login({ ...ADMIN, device_token: renewed })).status, 429);
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
