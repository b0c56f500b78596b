/**
 * Fixed-window failure counters kept in KV, so limits hold across restarts and instances.
 * Only failures count: a successful login does not use up the budget.
 */
import { keys } from "./keys.ts";
import { AppError } from "../errors.ts";

export type RateLimitRule = { max: number; windowMs: number };

export const RATE_LIMITS = {
  login: { max: 5, windowMs: 15 * 60_000 },
  apiKeyLogin: { max: 10, windowMs: 15 * 60_000 },
  sharePassword: { max: 10, windowMs: 5 * 60_000 },
  webdavLogin: { max: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

type Window = { count: number; reset_at: number };

export class RateLimiter {
  constructor(private kv: Deno.Kv) {}

  /** Throws 429 too_many_requests when the subject has used up its failures in this window. */
  async assertAllowed(scope: keyof typeof RATE_LIMITS, subject: string): Promise<void> {
    const rule = RATE_LIMITS[scope];
    const entry = await this.kv.get<Window>(keys.rateLimits(scope, subject));
    const w = entry.value;
    if (w && w.reset_at > Date.now() && w.count >= rule.max) {
      const seconds = Math.ceil((w.reset_at - Date.now()) / 1000);
      throw new AppError("too_many_requests", 429, { seconds });
    }
  }

  /** Records one failure for the subject. */
  async recordFailure(scope: keyof typeof RATE_LIMITS, subject: string): Promise<void> {
    const rule = RATE_LIMITS[scope];
    const key = keys.rateLimits(scope, subject);
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.kv.get<Window>(key);
      const now = Date.now();
      const w = entry.value && entry.value.reset_at > now
        ? { count: entry.value.count + 1, reset_at: entry.value.reset_at }
        : { count: 1, reset_at: now + rule.windowMs };
      const res = await this.kv.atomic().check(entry)
        .set(key, w, { expireIn: w.reset_at - now }).commit();
      if (res.ok) return;
    }
  }

  /** Clears the subject's failures (after a success). */
  async reset(scope: keyof typeof RATE_LIMITS, subject: string): Promise<void> {
    await this.kv.delete(keys.rateLimits(scope, subject));
  }
}
