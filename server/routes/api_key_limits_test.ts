/**
 * A valid API key always passes: unknown keys are limited per client address, which slows a
 * scanner, but no count of anyone's failures refuses a key that exists. Guessing one is what its
 * length forbids: custom keys need 32 characters (192 bits).
 */
import assert from "node:assert/strict";
import { ulid } from "ulid";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { ApiKeyRepo } from "../kv/api_key_repo.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { Permission } from "../../shared/permissions.ts";

const check = (t: TestApp, key: string, peer?: string) =>
  t.request("/api/test/api-key", { auth: `ApiKey ${key}`, peer });

/** Sends one request per item, one after the other; returns their statuses. */
async function statuses<T>(items: T[], send: (item: T) => Promise<Response>) {
  const out: number[] = [];
  for (const item of items) {
    const res = await send(item);
    out.push(res.status);
    await res.body?.cancel();
  }
  return out;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

Deno.test("API keys: after 12 wrong keys from one address, a valid key from it still passes", async () => {
  await using t = await createTestApp();
  const { key } = await t.createKey({ text: true });
  const wrong = await statuses(range(12), (i) => check(t, `guess-${i}-${crypto.randomUUID()}`));
  assert.deepEqual(wrong, [...Array(10).fill(401), 429, 429]);
  const valid = await check(t, key);
  assert.equal(valid.status, 200);
  assert.equal((await valid.json()).data.permissions.text, true);
  // The scanner stays slowed: its next guess is still refused.
  const next = await check(t, "yet-another-guess");
  assert.equal(next.status, 429);
  assert.equal((await next.json()).error, "too_many_requests");
});

Deno.test("API keys: 60 wrong keys at a valid key's prefix, from 60 addresses, never refuse it", async () => {
  await using t = await createTestApp();
  const { key } = await t.createKey({ text: true });
  const prefix = key.slice(0, 6);
  const wrong = await statuses(range(60), (i) => check(t, `${prefix}x${i}`, `10.1.0.${i}`));
  assert.deepEqual(wrong, Array(60).fill(401), "each address is within its own limit");
  for (const peer of ["10.1.0.0", "10.2.0.1", "127.0.0.1"]) {
    const res = await check(t, key, peer);
    assert.equal(res.status, 200, peer);
    await res.body?.cancel();
  }
});

Deno.test("API keys: a burst of 50 unknown keys gets at most 10 answered 401, valid ones all pass", async () => {
  await using t = await createTestApp();
  const { key } = await t.createKey({ text: true });
  const all = (n: number, send: (i: number) => Promise<Response>) =>
    Promise.all(range(n).map(send)).then((rs) =>
      Promise.all(rs.map(async (r) => (await r.body?.cancel(), r.status)))
    );
  const guesses = await all(50, (i) => check(t, `guess-${i}-${crypto.randomUUID()}`));
  assert.equal(guesses.filter((s) => s === 401).length, 10, JSON.stringify(guesses));
  assert.equal(guesses.filter((s) => s === 429).length, 40);
  assert.deepEqual(await all(50, () => check(t, key)), Array(50).fill(200));
});

Deno.test("WebDAV: a valid key as user and password passes after the address used up its wrong keys", async () => {
  await using t = await createTestApp();
  await t.createMount("/m");
  const { key } = await t.createKey({ webdav_read: true });
  const propfind = (authorization: string) =>
    t.request("/dav/m/", { method: "PROPFIND", headers: { authorization, depth: "0" } });
  const basic = (k: string) => `Basic ${btoa(`${k}:${k}`)}`;
  const wrong = await statuses(range(12), (i) => propfind(basic(`k${i}guess`)));
  assert.deepEqual(wrong, [...Array(10).fill(401), 429, 429]);
  assert.equal((await propfind(basic(key))).status, 207);
  assert.equal((await propfind(`ApiKey ${key}`)).status, 207);
});

Deno.test("custom keys need 32 characters; shorter keys made before still work", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const create = (custom_key: string, lang = "en-US") =>
    t.request("/api/admin/api-keys", {
      method: "POST",
      auth: admin,
      json: { name: `k-${crypto.randomUUID()}`, custom_key },
      lang,
    });
  for (
    const [short, lang, message] of [
      ["short_key-123", "en-US", /at least 32 characters/],
      ["x".repeat(31), "zh-CN", /至少需要 32 个字符/],
    ] as const
  ) {
    const res = await create(short, lang);
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error, "custom_key_too_short");
    assert.match(body.message, message);
    assert.deepEqual(body.data.fields, { custom_key: "custom_key_too_short" });
  }
  const long = "my-own_key-0123456789_abcdefghij";
  assert.equal(long.length, 32);
  const created = await create(long);
  assert.equal(created.status, 201);
  assert.equal((await created.json()).data.key, long);
  assert.equal((await check(t, long)).status, 200);

  // A short key made before the floor (written as the service wrote it then) keeps working.
  const old = "short123";
  await new ApiKeyRepo(t.kv).create({
    id: ulid(),
    name: "old",
    key_hash: sha256Hex(old),
    key_prefix: old.slice(0, 6),
    permissions: Permission.TEXT,
    role: "GENERAL",
    basic_path: "/",
    is_guest: false,
    created_at: new Date().toISOString(),
    expires_at: null,
  });
  assert.equal((await check(t, old)).status, 200);
});
