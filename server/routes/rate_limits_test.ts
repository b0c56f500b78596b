/**
 * Rate limits hold under concurrent bursts (issue 8, finding 4): every limiter is hit by 50
 * requests at once, at most its limit reaches verification (401) and the rest get 429; a
 * correct attempt works again once the window is over. Windows are shortened through the
 * config, so the tests wait seconds, not minutes.
 */
import assert from "node:assert/strict";
import { ADMIN, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { DEFAULT_KDF_ITERATIONS, DEFAULT_RATE_LIMITS, type RateLimits } from "../config.ts";

const BURST = 50;
const WINDOW_MS = 4_000;

/** Limits as in production, with a short window. */
function shortLimits(changes: Partial<RateLimits> = {}): RateLimits {
  const out = structuredClone(DEFAULT_RATE_LIMITS);
  for (const rule of Object.values(out)) rule.windowMs = WINDOW_MS;
  return { ...out, ...changes };
}

/** Sends a request as a client at `ip`. */
function from(t: TestApp, ip: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return Promise.resolve(t.app.fetch(
    new Request(new URL(path, "http://127.0.0.1"), { ...init, headers, body }),
    { remoteAddr: { hostname: ip, port: 1, transport: "tcp" } },
  ));
}

/** Fires all requests at once; returns how many got each status, and the burst's duration. */
async function burst(n: number, send: (i: number) => Promise<Response>) {
  const started = Date.now();
  const responses = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  const counts: Record<number, number> = {};
  for (const res of responses) {
    counts[res.status] = (counts[res.status] ?? 0) + 1;
    await res.body?.cancel();
  }
  const ms = Date.now() - started;
  assert.ok(ms < WINDOW_MS, `the burst took ${ms} ms, longer than the window`);
  return counts;
}

/** Asserts that at most `max` (and at least one) passed to verification and the rest got 429. */
function assertLimited(counts: Record<number, number>, max: number, label: string) {
  const verified = counts[401] ?? 0;
  const refused = counts[429] ?? 0;
  assert.equal(verified + refused, BURST, `${label}: ${JSON.stringify(counts)}`);
  assert.ok(verified >= 1 && verified <= max, `${label}: ${verified} verified, limit ${max}`);
}

const waitForWindow = () => new Promise((r) => setTimeout(r, WINDOW_MS + 200));

async function withApp(fn: (t: TestApp) => Promise<void>, limits = shortLimits()) {
  await using t = await createTestApp({}, { rateLimits: limits });
  await fn(t);
}

Deno.test("login: 50 concurrent wrong passwords, at most 5 verified, then 429", async () => {
  await withApp(async (t) => {
    const wrong = { username: ADMIN.username, password: "wrong" };
    const counts = await burst(
      BURST,
      () => t.request("/api/admin/login", { method: "POST", json: wrong }),
    );
    assertLimited(counts, 5, "login");
    const blocked = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
    assert.equal(blocked.status, 429);
    assert.equal((await blocked.json()).error, "too_many_requests");
    // Another client is not affected.
    const other = await from(t, "10.0.0.2", "/api/admin/login", { method: "POST", json: ADMIN });
    assert.equal(other.status, 200);
    await other.body?.cancel();
    await waitForWindow();
    const after = await t.request("/api/admin/login", { method: "POST", json: ADMIN });
    assert.equal(after.status, 200);
    await after.body?.cancel();
  });
});

Deno.test("paste password: 50 concurrent wrong passwords, at most 10 verified", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const created = await t.request("/api/paste", {
      method: "POST",
      auth: admin,
      json: { content: "secret", password: "open sesame" },
    });
    const { slug } = (await created.json()).data;
    const counts = await burst(
      BURST,
      (i) =>
        i % 2
          ? t.request(`/api/paste/${slug}`, { method: "POST", json: { password: `bad${i}` } })
          : t.request(`/api/raw/${slug}?password=bad${i}`),
    );
    assertLimited(counts, 10, "paste");
    const blocked = await t.request(`/api/paste/${slug}`, {
      method: "POST",
      json: { password: "open sesame" },
    });
    assert.equal(blocked.status, 429);
    await blocked.body?.cancel();
    await waitForWindow();
    const after = await t.request(`/api/paste/${slug}`, {
      method: "POST",
      json: { password: "open sesame" },
    });
    assert.equal(after.status, 200);
    assert.equal((await after.json()).data.content, "secret");
  });
});

Deno.test("file password: 50 concurrent wrong passwords, at most 10 verified", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const fd = new FormData();
    fd.set("password", "open sesame");
    fd.set("file", new Blob(["file body"]), "f.txt");
    const created = await t.request("/api/upload", { method: "POST", auth: admin, body: fd });
    const { slug } = (await created.json()).data;
    const counts = await burst(BURST, (i) =>
      i % 2
        ? t.request(`/api/public/files/${slug}/verify`, {
          method: "POST",
          json: { password: `bad${i}` },
        })
        : t.request(`/api/file-download/${slug}?password=bad${i}`));
    assertLimited(counts, 10, "file");
    const verify = () =>
      t.request(`/api/public/files/${slug}/verify`, {
        method: "POST",
        json: { password: "open sesame" },
      });
    const blocked = await verify();
    assert.equal(blocked.status, 429);
    await blocked.body?.cancel();
    await waitForWindow();
    const after = await verify();
    assert.equal(after.status, 200);
    await after.body?.cancel();
  });
});

Deno.test("API key: wrong keys are limited per client, valid keys never use up the budget", async () => {
  await withApp(async (t) => {
    const { auth: valid } = await t.createKey({ text: true });
    // A legitimate key used many times, also concurrently, counts nothing.
    const used = await burst(BURST, () => t.request("/api/test/api-key", { auth: valid }));
    assert.deepEqual(used, { 200: BURST });

    const counts = await burst(
      BURST,
      (i) => t.request("/api/test/api-key", { auth: `ApiKey guess-${i}-${crypto.randomUUID()}` }),
    );
    assertLimited(counts, 10, "api key per client");
    const limited = await t.request("/api/test/api-key", { auth: "ApiKey another-guess-123" });
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).error, "too_many_requests");
    // A blocked client is refused even with the right key, so a 429 never tells a guess apart.
    const blockedValid = await t.request("/api/test/api-key", { auth: valid });
    assert.equal(blockedValid.status, 429);
    await blockedValid.body?.cancel();
    // Other clients keep working.
    const other = await from(t, "10.0.0.9", "/api/test/api-key", {
      headers: { authorization: valid },
    });
    assert.equal(other.status, 200);
    await other.body?.cancel();
    await waitForWindow();
    const after = await t.request("/api/test/api-key", { auth: valid });
    assert.equal(after.status, 200);
    await after.body?.cancel();
  });
});

Deno.test("API key: guesses at one key prefix are limited across clients", async () => {
  const limits = shortLimits({ apiKeyPrefix: { max: 20, windowMs: WINDOW_MS } });
  await withApp(async (t) => {
    const { auth: valid, key } = await t.createKey({ text: true }, { custom_key: "short123" });
    assert.equal(key, "short123");
    // 50 clients, one wrong guess each, all at the prefix "short1".
    const counts = await burst(BURST, (i) =>
      from(t, `10.1.0.${i}`, "/api/test/api-key", {
        headers: { authorization: `ApiKey short1x${i}` },
      }));
    assertLimited(counts, 20, "api key per prefix");
    const blocked = await from(t, "10.2.0.1", "/api/test/api-key", {
      headers: { authorization: valid },
    });
    assert.equal(blocked.status, 429);
    await blocked.body?.cancel();
    await waitForWindow();
    const after = await from(t, "10.2.0.1", "/api/test/api-key", {
      headers: { authorization: valid },
    });
    assert.equal(after.status, 200);
    await after.body?.cancel();
  }, limits);
});

Deno.test("WebDAV Basic: 50 concurrent wrong passwords, at most 10 verified; keys share the key limit", async () => {
  await withApp(async (t) => {
    await t.createMount("/m");
    const basic = (user: string, pass: string) => `Basic ${btoa(`${user}:${pass}`)}`;
    const counts = await burst(BURST, (i) =>
      t.request("/dav/m/", {
        method: "PROPFIND",
        headers: { authorization: basic(ADMIN.username, `bad${i}`), depth: "0" },
      }));
    assertLimited(counts, 10, "webdav");
    const blocked = await t.request("/dav/m/", {
      method: "PROPFIND",
      headers: { authorization: basic(ADMIN.username, ADMIN.password), depth: "0" },
    });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.headers.get("x-error-code"), "too_many_requests");
    await blocked.body?.cancel();

    // A wrong key as user and password counts against the key limit of another client too.
    const keyCounts = await burst(BURST, (i) =>
      from(t, "10.3.0.1", "/dav/m/", {
        method: "PROPFIND",
        headers: { authorization: basic(`k${i}guess`, `k${i}guess`), depth: "0" },
      }));
    assertLimited(keyCounts, 10, "webdav key");
    const keyHeader = await from(t, "10.3.0.1", "/dav/m/", {
      method: "PROPFIND",
      headers: { authorization: "ApiKey yet-another-guess", depth: "0" },
    });
    assert.equal(keyHeader.status, 429);
    await keyHeader.body?.cancel();

    await waitForWindow();
    const after = await t.request("/dav/m/", {
      method: "PROPFIND",
      headers: { authorization: basic(ADMIN.username, ADMIN.password), depth: "0" },
    });
    assert.equal(after.status, 207);
    await after.body?.cancel();
  });
});

Deno.test("WebDAV Basic: a client opening 30 connections at once with the right password", async () => {
  // The production KDF cost, so the 30 checks overlap instead of finishing one by one.
  await using t = await createTestApp({}, {
    rateLimits: shortLimits(),
    kdfIterations: DEFAULT_KDF_ITERATIONS,
  });
  await t.createMount("/m");
  const auth = `Basic ${btoa(`${ADMIN.username}:${ADMIN.password}`)}`;
  const counts = await burst(30, () =>
    t.request("/dav/m/", {
      method: "PROPFIND",
      headers: { authorization: auth, depth: "0" },
    }));
  assert.deepEqual(counts, { 207: 30 });
});

Deno.test("password checks queue in the KDF gate; a burst beyond its queue gets 429", async () => {
  await using t = await createTestApp({}, {
    kdfIterations: 200_000,
    kdfConcurrency: 1,
    kdfQueue: 2,
  });
  // Different clients, so no rate limit applies: only the gate bounds the work.
  const counts = await burst(20, (i) =>
    from(t, `10.4.0.${i}`, "/api/admin/login", {
      method: "POST",
      json: { username: ADMIN.username, password: `bad${i}` },
    }));
  assert.equal((counts[401] ?? 0) + (counts[429] ?? 0), 20, JSON.stringify(counts));
  assert.ok((counts[401] ?? 0) >= 1, JSON.stringify(counts));
  assert.ok((counts[429] ?? 0) >= 1, JSON.stringify(counts));
  assert.deepEqual(t.services.attempts.kdf.load, { active: 0, waiting: 0 });
  // The refused attempts gave their reservations back: those clients may still log in.
  const ok = await from(t, "10.4.0.0", "/api/admin/login", { method: "POST", json: ADMIN });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
});
