/**
 * Progressive slowdown of password guesses, kept in KV so it holds across restarts and
 * instances. A subject (client address and target, or a known device) has a few free attempts;
 * each further attempt gets a slot later than the one before, the gap doubling from `delayMs`
 * up to `maxDelayMs`. The caller waits for its slot when it is at most `maxHoldMs` away and is
 * answered 429 otherwise, so a guesser is slowed exponentially while a person who mistyped a few
 * times only waits a moment, and nobody is locked out for a fixed window.
 *
 * A slot is reserved *before* the password is verified, with a checked commit (retried on
 * conflict): N concurrent attempts take N distinct, ever later slots, so a burst gets at most
 * `free` plus the few slots within `maxHoldMs` verified, and the rest get 429 at once. A success
 * clears the subject (`reset`); an attempt never verified gives its count back (`release`).
 * Subjects are stored hashed, so no user-controlled value can make a key too large.
 */
import { createHash } from "node:crypto";
import { keys } from "./keys.ts";
import { readGroupsOf } from "./read_groups.ts";
import { AppError } from "../errors.ts";
import type { SlowdownRule, SlowdownScope } from "../config.ts";

/** Attempts reserved since the subject was last cleared, and the earliest next slot (ms). */
type Slots = { count: number; next_at: number };

/** A reserved attempt: wait `holdMs`, then verify. */
export type Slot = { holdMs: number };

/** Commits tried before a reservation gives up under contention (and answers 429). */
const MAX_RESERVE_ATTEMPTS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tooMany(waitMs: number): AppError {
  return new AppError("too_many_requests", 429, { seconds: Math.max(1, Math.ceil(waitMs / 1000)) });
}

/** The gap after the `count`-th attempt: none while free, then doubling up to the cap. */
export function gapAfter(rule: SlowdownRule, count: number): number {
  if (count < rule.free) return 0;
  return Math.min(rule.delayMs * 2 ** Math.min(count - rule.free, 40), rule.maxDelayMs);
}

export class SlowdownLimiter {
  constructor(private kv: Deno.Kv, private rules: Record<SlowdownScope, SlowdownRule>) {}

  private keyOf(scope: SlowdownScope, subject: string): Deno.KvKey {
    return keys.attemptSlots(scope, createHash("sha256").update(subject).digest("base64"));
  }

  /** When the subject's next attempt may be verified: now while it has free attempts. */
  private slotOf(rule: SlowdownRule, s: Slots, now: number): number {
    return s.count < rule.free ? now : Math.max(now, s.next_at);
  }

  /** The 429 an attempt of the subject would get now, or null. A read only. */
  async refusal(scope: SlowdownScope, subject: string): Promise<AppError | null> {
    return (await this.refusalWith(scope, subject, [])).refusal;
  }

  /**
   * `refusal`, with the entries at `alsoRead` read in the same round trip (one `getMany`), for
   * a check that needs a record beside the subject's slots. Grouped with other requests' reads
   * (read_groups.ts): every WebDAV request with a password makes it.
   */
  async refusalWith(
    scope: SlowdownScope,
    subject: string,
    alsoRead: Deno.KvKey[],
  ): Promise<{ refusal: AppError | null; entries: Deno.KvEntryMaybe<unknown>[] }> {
    const rule = this.rules[scope];
    const [slots, ...entries] = await readGroupsOf(this.kv).getMany([
      this.keyOf(scope, subject),
      ...alsoRead,
    ]);
    const value = slots.value as Slots | null;
    if (!value) return { refusal: null, entries };
    const now = Date.now();
    const wait = this.slotOf(rule, value, now) - now;
    return { refusal: wait > rule.maxHoldMs ? tooMany(wait) : null, entries };
  }

  /**
   * Reserves the subject's next slot, atomically. Throws 429 when that slot is more than
   * `maxHoldMs` away or the record stays contended (failing closed). With `freeOnly`, takes only
   * a free attempt and returns null when none is left (nothing is reserved then).
   */
  reserve(scope: SlowdownScope, subject: string): Promise<Slot>;
  reserve(scope: SlowdownScope, subject: string, opts: { freeOnly: true }): Promise<Slot | null>;
  async reserve(
    scope: SlowdownScope,
    subject: string,
    opts: { freeOnly?: boolean } = {},
  ): Promise<Slot | null> {
    const rule = this.rules[scope];
    const key = this.keyOf(scope, subject);
    for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt++) {
      const entry = await this.kv.get<Slots>(key);
      const now = Date.now();
      const s = entry.value ?? { count: 0, next_at: 0 };
      if (opts.freeOnly && s.count >= rule.free) return null;
      const slot = this.slotOf(rule, s, now);
      if (slot - now > rule.maxHoldMs) throw tooMany(slot - now);
      const count = s.count + 1;
      const next = { count, next_at: Math.max(s.next_at, slot + gapAfter(rule, count)) };
      const res = await this.kv.atomic().check(entry)
        .set(key, next, { expireIn: this.lifetime(rule, next, now) }).commit();
      if (res.ok) return { holdMs: slot - now };
      await sleep(Math.random() * Math.min(20, 1 + attempt));
    }
    throw tooMany(1000);
  }

  /** How long a record lives: until `forgetMs` after its next slot. */
  private lifetime(rule: SlowdownRule, s: Slots, now: number): number {
    return Math.max(0, s.next_at - now) + rule.forgetMs;
  }

  /**
   * Gives back the count of an attempt that was never verified. Its slot stays taken: later
   * reservations may already sit behind it.
   */
  async release(scope: SlowdownScope, subject: string): Promise<void> {
    const rule = this.rules[scope];
    const key = this.keyOf(scope, subject);
    for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt++) {
      const entry = await this.kv.get<Slots>(key);
      if (!entry.value || entry.value.count === 0) return;
      const now = Date.now();
      const next = { ...entry.value, count: entry.value.count - 1 };
      const res = await this.kv.atomic().check(entry)
        .set(key, next, { expireIn: this.lifetime(rule, next, now) }).commit();
      if (res.ok) return;
      await sleep(Math.random() * Math.min(20, 1 + attempt));
    }
  }

  /** Clears the subject (after a success). */
  async reset(scope: SlowdownScope, subject: string): Promise<void> {
    await this.kv.delete(this.keyOf(scope, subject));
  }
}
