/**
 * Guarded password checks: every check of a secret chosen by an unauthenticated caller goes
 * through here. The attempt's slot is reserved in KV before it is verified (so a concurrent
 * burst cannot exceed the limit), the caller waits for that slot, the slow KDF runs inside the
 * gate (so a burst cannot saturate the cores), a success clears the subject, and a check that
 * never ran gives its count back.
 */
import type { SlowdownScope } from "../config.ts";
import type { RateLimiter } from "../kv/rate_limit_repo.ts";
import type { Slot, SlowdownLimiter } from "../kv/slowdown_repo.ts";
import type { KdfGate } from "./kdf_gate.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class AttemptGuard {
  constructor(
    readonly slowdown: SlowdownLimiter,
    readonly limiter: RateLimiter,
    readonly kdf: KdfGate,
  ) {}

  /**
   * Runs `verify` as one attempt of `subject` under `scope`, after waiting for its slot; returns
   * its answer. With `preferred` (a known device), the attempt is that subject's while it has
   * free attempts left, and `subject`'s otherwise. Throws 429 `too_many_requests` when the slot
   * is too far away or the server is busy.
   */
  async check(
    scope: SlowdownScope,
    subject: string,
    verify: () => Promise<boolean>,
    preferred?: string,
  ): Promise<boolean> {
    let slot: Slot | null = null;
    if (preferred) {
      slot = await this.slowdown.reserve(scope, preferred, { freeOnly: true });
      if (slot) subject = preferred;
    }
    slot ??= await this.slowdown.reserve(scope, subject);
    if (slot.holdMs > 0) await sleep(slot.holdMs);
    let ok: boolean;
    try {
      ok = await this.kdf.run(verify);
    } catch (err) {
      await this.slowdown.release(scope, subject);
      throw err;
    }
    if (ok) await this.slowdown.reset(scope, subject);
    return ok;
  }
}
