/**
 * Fixed-window failure counters kept in KV, so limits hold across restarts and instances. They
 * count unknown API keys per client address (password guesses are slowed instead, see
 * slowdown_repo.ts).
 *
 * A failure is counted with a checked commit (retried on conflict) only while the window has
 * room, so N concurrent misses never count past `max`, and the rest get 429 at once. Subjects
 * are stored hashed, so no user-controlled value (a forwarded address) can make a key too large.
 */
import { createHash } from "node:crypto";
import { keys } from "./keys.ts";
import { AppError } from "../errors.ts";
import type { WindowRule } from "../config.ts";

/** The scopes counted in fixed windows. */
export type WindowScope = "apiKeyClient";

type Window = { count: number; reset_at: number };

/** Commits tried before a reservation gives up under contention (and answers 429). */
const MAX_RESERVE_ATTEMPTS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tooMany(resetAt: number): AppError {
  return new AppError("too_many_requests", 429, {
    seconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
  });
}

/** Subjects hashed lately (client addresses, mostly): each API-key request hashes its client's. */
const hashes = new Map<string, string>();
const MAX_HASHES = 4096;
/** Longer subjects are hashed every time, so the memo holds at most 4096 × 256 characters. */
const MAX_REMEMBERED_LENGTH = 256;

/** A subject's SHA-256 in base64, remembered for the next request of the same subject. */
function subjectHash(subject: string): string {
  let hash = hashes.get(subject);
  if (hash === undefined) {
    hash = createHash("sha256").update(subject).digest("base64");
    if (subject.length <= MAX_REMEMBERED_LENGTH) {
      if (hashes.size >= MAX_HASHES) hashes.clear(); // a pure function's memo: start again
      hashes.set(subject, hash);
    }
  }
  return hash;
}

export class RateLimiter {
  constructor(private kv: Deno.Kv, private rules: Record<WindowScope, WindowRule>) {}

  /** The counter key of a subject: its SHA-256 (node:crypto, synchronous), base64. */
  keyOf(scope: WindowScope, subject: string): Deno.KvKey {
    return keys.rateLimits(scope, subjectHash(subject));
  }

  /** The 429 to answer when the subject's counter, read as `entry`, is used up; or null. */
  refusalOf(scope: WindowScope, entry: Deno.KvEntryMaybe<unknown>): AppError | null {
    const w = this.live(entry as Deno.KvEntryMaybe<Window>);
    return w && w.count >= this.rules[scope].max ? tooMany(w.reset_at) : null;
  }

  private live(entry: Deno.KvEntryMaybe<Window>, now = Date.now()): Window | null {
    return entry.value && entry.value.reset_at > now ? entry.value : null;
  }

  /**
   * Counts one failure while the window has room, atomically. Throws 429 when the subject has
   * used up its window, or when the counter stays contended (failing closed).
   */
  async reserve(scope: WindowScope, subject: string): Promise<void> {
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
}
