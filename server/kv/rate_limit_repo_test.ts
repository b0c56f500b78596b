import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { RateLimiter } from "./rate_limit_repo.ts";
import { AppError } from "../errors.ts";
import { DEFAULT_RATE_LIMITS } from "../config.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

function limiterOn(kv: Deno.Kv, max: number, windowMs = 60_000) {
  return new RateLimiter(kv, { ...DEFAULT_RATE_LIMITS, apiKeyClient: { max, windowMs } });
}

async function outcome(p: Promise<unknown>): Promise<"ok" | number> {
  try {
    await p;
    return "ok";
  } catch (e) {
    assert.ok(e instanceof AppError && e.code === "too_many_requests", `got ${e}`);
    return Number(e.details?.seconds);
  }
}

Deno.test("rate limit: max failures per window, then 429 with the seconds left", async () => {
  await using t = await tempKv();
  const limiter = limiterOn(t.kv, 3, 30_000);
  for (let i = 0; i < 3; i++) await limiter.reserve("apiKeyClient", "10.0.0.1");
  const seconds = await outcome(limiter.reserve("apiKeyClient", "10.0.0.1"));
  assert.ok(typeof seconds === "number" && seconds > 0 && seconds <= 30, `${seconds}`);
  assert.equal(await outcome(limiter.reserve("apiKeyClient", "10.0.0.2")), "ok", "per subject");
  const key = limiter.keyOf("apiKeyClient", "10.0.0.1");
  assert.ok(limiter.refusalOf("apiKeyClient", await t.kv.get(key)) instanceof AppError);
  const other = await t.kv.get(limiter.keyOf("apiKeyClient", "10.0.0.2"));
  assert.equal(limiter.refusalOf("apiKeyClient", other), null);
});

Deno.test("rate limit: concurrent failures never count past max", async () => {
  await using t = await tempKv();
  const limiter = limiterOn(t.kv, 5);
  const results = await Promise.all(
    Array.from({ length: 12 }, () => outcome(limiter.reserve("apiKeyClient", "s"))),
  );
  assert.equal(results.filter((r) => r === "ok").length, 5);
  const entry = await t.kv.get<{ count: number }>(limiter.keyOf("apiKeyClient", "s"));
  assert.equal(entry.value?.count, 5);
});

Deno.test("rate limit: a window past its reset starts again; huge subjects fit a key", async () => {
  await using t = await tempKv();
  const limiter = limiterOn(t.kv, 1);
  const key = limiter.keyOf("apiKeyClient", "x".repeat(10_000));
  assert.equal(String(key.at(-1)).length, 44, "stored as a SHA-256");
  await t.kv.set(key, { count: 1, reset_at: Date.now() - 1 });
  assert.equal(limiter.refusalOf("apiKeyClient", await t.kv.get(key)), null);
  assert.equal(await outcome(limiter.reserve("apiKeyClient", "x".repeat(10_000))), "ok");
  assert.notEqual(await outcome(limiter.reserve("apiKeyClient", "x".repeat(10_000))), "ok");
});

Deno.test("rate limit: a subject's key is its SHA-256, the same when hashed again or remembered", async () => {
  await using t = await tempKv();
  const limiter = limiterOn(t.kv, 5);
  const expected = (s: string) => createHash("sha256").update(s).digest("base64");
  const long = "x".repeat(300);
  for (const subject of ["203.0.113.7", "::1", long, "203.0.113.7", long]) {
    assert.deepEqual(limiter.keyOf("apiKeyClient", subject).at(-1), expected(subject));
  }
  // Past the memo's bound it starts again and still answers the same.
  for (let i = 0; i < 5000; i++) limiter.keyOf("apiKeyClient", `10.0.${i >> 8}.${i & 255}`);
  assert.deepEqual(limiter.keyOf("apiKeyClient", "203.0.113.7").at(-1), expected("203.0.113.7"));
  assert.notDeepEqual(limiter.keyOf("apiKeyClient", "a"), limiter.keyOf("apiKeyClient", "b"));
});
