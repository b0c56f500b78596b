/** Leases in KV: one instance at a time runs a background or start-up job, across processes. */
import { keys } from "./keys.ts";

type Lease = { owner: string; until: number };

/** The jobs that take a lease: the expiry sweeper, and the start-up jobs (migrations). */
export type LeaseName = "sweeper" | "startup";

export class LeaseRepo {
  constructor(private kv: Deno.Kv) {}

  /** Takes or renews the lease `name` for `ms`; false when another live owner holds it. */
  async acquire(name: LeaseName, owner: string, ms: number): Promise<boolean> {
    const key = keys.leases(name);
    const entry = await this.kv.get<Lease>(key);
    const now = Date.now();
    if (entry.value && entry.value.owner !== owner && entry.value.until > now) return false;
    const res = await this.kv.atomic().check(entry)
      .set(key, { owner, until: now + ms }, { expireIn: ms }).commit();
    return res.ok;
  }

  /** Gives up `owner`'s lease `name` (one another owner holds meanwhile stays). */
  async release(name: LeaseName, owner: string): Promise<void> {
    const entry = await this.kv.get<Lease>(keys.leases(name));
    if (entry.value?.owner !== owner) return;
    await this.kv.atomic().check(entry).delete(keys.leases(name)).commit();
  }
}
