import assert from "node:assert/strict";
import { gapAfter, SlowdownLimiter } from "./slowdown_repo.ts";
import { AppError } from "../errors.ts";
import { DEFAULT_RATE_LIMITS, type SlowdownRule } from "../config.ts";
import { withTempKv } from "../../tests/helpers/kv.ts";

const RULE: SlowdownRule = {
  free: 2,
  delayMs: 1_000,
  maxDelayMs: 60_000,
  maxHoldMs: 5_000,
  forgetMs: 60_000,
};

function limiterOn(kv: Deno.Kv, rule = RULE) {
  return new SlowdownLimiter(kv, { ...DEFAULT_RATE_LIMITS, login: rule });
}

/** The 429's retry seconds, or fails. */
async function refusedSeconds(p: Promise<unknown>): Promise<number> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError && err.status === 429, `expected 429, got ${err}`);
  return Number(err.details?.seconds);
}

/** Asserts a hold of about `expected` ms: never more, and less only by the time that passed. */
function assertHold(holdMs: number, expected: number) {
  assert.ok(holdMs <= expected && holdMs > expected - 500, `hold ${holdMs}, expected ${expected}`);
}

Deno.test("gaps: none while free, then doubling from delayMs up to maxDelayMs", () => {
  const rule = { ...RULE, free: 5, maxDelayMs: 8_000 };
  const gaps = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 500].map((n) => gapAfter(rule, n));
  assert.deepEqual(gaps, [0, 0, 0, 0, 0, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
});

Deno.test("free attempts run at once; later ones get ever later slots, then 429", async () => {
  await withTempKv(async (kv) => {
    const limiter = limiterOn(kv);
    assert.deepEqual(await limiter.reserve("login", "s"), { holdMs: 0 });
    assert.deepEqual(await limiter.reserve("login", "s"), { holdMs: 0 });
    assertHold((await limiter.reserve("login", "s")).holdMs, 1_000);
    assertHold((await limiter.reserve("login", "s")).holdMs, 3_000);
    // The next slot is 7 s away, beyond the 5 s the server holds a request.
    assert.equal(await refusedSeconds(limiter.reserve("login", "s")), 7);
    const refusal = await limiter.refusal("login", "s");
    assert.equal(await refusedSeconds(Promise.reject(refusal)), 7);
    // A refusal reserves nothing, and other subjects are not affected.
    assert.equal(await refusedSeconds(limiter.reserve("login", "s")), 7);
    assert.deepEqual(await limiter.reserve("login", "other"), { holdMs: 0 });
    // A success clears the subject.
    await limiter.reset("login", "s");
    assert.equal(await limiter.refusal("login", "s"), null);
    assert.deepEqual(await limiter.reserve("login", "s"), { holdMs: 0 });
  });
});

Deno.test("50 concurrent reservations: the free ones and the slots within the hold, the rest 429", async () => {
  await withTempKv(async (kv) => {
    const limiter = limiterOn(kv, { ...RULE, free: 3 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => limiter.reserve("login", "burst").catch((e) => e)),
    );
    const holds = results.filter((r) => !(r instanceof AppError)).map((r) => r.holdMs);
    assert.equal(results.filter((r) => r instanceof AppError && r.status === 429).length, 45);
    // Three free, then slots 1 s and 3 s after the last free one (the next, 7 s, is too far).
    holds.sort((a, b) => a - b);
    assert.deepEqual(holds.slice(0, 3), [0, 0, 0]);
    assertHold(holds[3], 1_000);
    assertHold(holds[4], 3_000);
  });
});

Deno.test("freeOnly takes a free attempt or nothing; release gives a count back", async () => {
  await withTempKv(async (kv) => {
    const limiter = limiterOn(kv);
    assert.deepEqual(await limiter.reserve("login", "d", { freeOnly: true }), { holdMs: 0 });
    assert.deepEqual(await limiter.reserve("login", "d", { freeOnly: true }), { holdMs: 0 });
    assert.equal(await limiter.reserve("login", "d", { freeOnly: true }), null);
    // Nothing was reserved by the refusal: the next ordinary attempt takes the first slow slot.
    assertHold((await limiter.reserve("login", "d")).holdMs, 1_000);
    await limiter.release("login", "d");
    await limiter.release("login", "d");
    // Below the free count again: at once, whatever slots were handed out before.
    assert.deepEqual(await limiter.reserve("login", "d"), { holdMs: 0 });
  });
});
