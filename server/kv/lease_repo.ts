/** Leases in KV: one instance at a time runs a background job, across processes. */
import { keys } from "./keys.ts";

type Lease = { owner: string; until: number };

export class LeaseRepo {
  constructor(private kv: Deno.Kv) {}

  /** Takes or renews the lease for `ms`; false when another live owner holds it. */
  async acquire(owner: string, ms: number): Promise<boolean> {
    const key = keys.sweeperLease();
    const entry = await this.kv.get<Lease>(key);
    const now = Date.now();
    if (entry.value && entry.value.owner !== owner && entry.value.until > now) return false;
    const res = await this.kv.atomic().check(entry)
      .set(key, { owner, until: now + ms }, { expireIn: ms }).commit();
    return res.ok;
  }
}
