/**
 * Fixed-window attempt counters kept in KV, so limits hold across restarts and instances.
 *
 * An attempt is reserved *before* it is verified: `reserve` moves the counter with a checked
 * commit (retried on conflict) only while it is below the limit, so N concurrent attempts can
 * never pass more than `max` to verification, and the rest get 429 at once. A reservation
 * stands as the failure it will most likely be; a success clears the subject (`reset`), and an
 * attempt that was never verified gives its slot back (`release`). Subjects are stored hashed,
 * so no user-controlled value (a username, a forwarded address) can make a key too large.
 */
import { createHash } from "node:crypto";
import { keys } from "./keys.ts";
import { AppError } from "../errors.ts";
import type { RateLimits, RateLimitScope } from "../config.ts";

type Window = { count: number; reset_at: number };

/** Commits tried before a reservation gives up under contention (and answers 429). */
const MAX_RESERVE_ATTEMPTS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tooMany(resetAt: number): AppError {
  return new AppError("too_many_requests", 429, {
    seconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
  });
}

export class RateLimiter {
  constructor(private kv: Deno.Kv, private rules: RateLimits) {}

  /** The counter key of a subject: its SHA-256 (node:crypto, synchronous), base64. */
  keyOf(scope: RateLimitScope, subject: string): Deno.KvKey {
    return keys.rateLimits(scope, createHash("sha256").update(subject).digest("base64"));
  }

  /** The counter keys of subjects, to read them along with something else. */
  keysOf(subjects: [RateLimitScope, string][]): Deno.KvKey[] {
    return subjects.map(([scope, subject]) => this.keyOf(scope, subject));
  }

  /** The 429 to answer when any subject's counter, read at `entries`, is used up; or null. */
  refusalOf(
    subjects: [RateLimitScope, string][],
    entries: Deno.KvEntryMaybe<unknown>[],
  ): AppError | null {
    for (const [i, entry] of entries.entries()) {
      const w = this.live(entry as Deno.KvEntryMaybe<Window>);
      if (w && w.count >= this.rules[subjects[i][0]].max) return tooMany(w.reset_at);
    }
    return null;
  }

  private live(entry: Deno.KvEntryMaybe<Window>, now = Date.now()): Window | null {
    return entry.value && entry.value.reset_at > now ? entry.value : null;
  }

  /**
   * The 429 to answer when any of the subjects has used up its attempts, or null. A read only,
   * for a cheap first check.
   */
  async blocked(subjects: [RateLimitScope, string][]): Promise<AppError | null> {
    return this.refusalOf(subjects, await this.kv.getMany<Window[]>(this.keysOf(subjects)));
  }

  /** Throws 429 too_many_requests when the subject has used up its attempts in this window. */
  async assertAllowed(scope: RateLimitScope, subject: string): Promise<void> {
    const refusal = await this.blocked([[scope, subject]]);
    if (refusal) throw refusal;
  }

  /**
   * Reserves one attempt: counts it while the window has room, atomically. Throws 429 when the
   * subject has used up its attempts, or when the counter stays contended (failing closed).
   */
  async reserve(scope: RateLimitScope, subject: string): Promise<void> {
    const rule = this.rules[scope];
    const key = this.keyOf(scope, subject);
    for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt++) {
      const entry = await this.kv.get<Window>(key);
      const now = Date.now();
      const w = this.live(entry, now) ?? { count: 0, reset_at: now + rule.windowMs };
      if (w.count >= rule.max) throw tooMany(w.reset_at);
      const next = { count: w.count + 1, reset_at: w.reset_at };
      const res = await this.kv.atomic().check(entry)
        .set(key, next, { expireIn: Math.max(1, next.reset_at - now) }).commit();
      if (res.ok) return;
      await sleep(Math.random() * Math.min(20, 1 + attempt));
    }
    throw tooMany(Date.now() + 1000);
  }

  /** Gives back one reserved attempt that was never verified (same window only). */
  async release(scope: RateLimitScope, subject: string): Promise<void> {
    const key = this.keyOf(scope, subject);
    for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt++) {
      const entry = await this.kv.get<Window>(key);
      const now = Date.now();
      const w = this.live(entry, now);
      if (!w || w.count === 0) return;
      const res = await this.kv.atomic().check(entry)
        .set(key, { ...w, count: w.count - 1 }, { expireIn: Math.max(1, w.reset_at - now) })
        .commit();
      if (res.ok) return;
      await sleep(Math.random() * Math.min(20, 1 + attempt));
    }
  }

  /** Clears the subject's attempts (after a success). */
  async reset(scope: RateLimitScope, subject: string): Promise<void> {
    await this.kv.delete(this.keyOf(scope, subject));
  }
}
