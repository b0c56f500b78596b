/**
 * Guarded password checks: every check of a secret chosen by an unauthenticated caller goes
 * through here. The attempt is reserved in KV before it is verified (so a concurrent burst
 * cannot exceed the limit), the slow KDF runs inside the gate (so a burst cannot saturate the
 * cores), a success clears the subject's failures, and a check that never ran gives its
 * reservation back.
 */
import type { RateLimitScope } from "../config.ts";
import type { RateLimiter } from "../kv/rate_limit_repo.ts";
import type { KdfGate } from "./kdf_gate.ts";

export class AttemptGuard {
  constructor(readonly limiter: RateLimiter, readonly kdf: KdfGate) {}

  /**
   * Runs `verify` as one attempt of `subject` under `scope`; returns its answer. Throws 429
   * `too_many_requests` when the subject has no attempts left or the server is busy.
   */
  async check(
    scope: RateLimitScope,
    subject: string,
    verify: () => Promise<boolean>,
  ): Promise<boolean> {
    await this.limiter.reserve(scope, subject);
    let ok: boolean;
    try {
      ok = await this.kdf.run(verify);
    } catch (err) {
      await this.limiter.release(scope, subject);
      throw err;
    }
    if (ok) await this.limiter.reset(scope, subject);
    return ok;
  }
}
