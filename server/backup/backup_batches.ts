/**
 * Splits a long list of KV writes into commits that stay under Deno KV's limits: 800 KiB of
 * keys and values, 1000 mutations and 80 KiB of keys per atomic commit. Sizes are estimated
 * pessimistically; a single write over a limit still goes alone (and KV refuses it).
 */

/** One write of a restore: set a value, or delete the key. */
export type Mutation = { key: Deno.KvKey; value: unknown } | { key: Deno.KvKey; delete: true };

/** Budget of one commit, with room for the journal marker that rides along. */
const BATCH_BYTES = 600_000;
export const BATCH_MUTATIONS = 400;
const BATCH_KEY_BYTES = 50_000;

/** A pessimistic estimate of the serialised size of a KV key or value. */
export function sizeOf(v: unknown): number {
  if (v === null || v === undefined) return 2;
  if (v instanceof Uint8Array) return v.byteLength + 8;
  if (v instanceof Deno.KvU64) return 16;
  if (typeof v === "string") return v.length * 3 + 4;
  if (typeof v !== "object") return 10;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + sizeOf(x), 4);
  let n = 4;
  for (const [k, x] of Object.entries(v)) n += k.length * 3 + sizeOf(x);
  return n;
}

/** Collects writes and hands them to `commit` in groups that fit one KV commit. */
export class Batcher {
  private pending: Mutation[] = [];
  private bytes = 0;
  private keyBytes = 0;

  constructor(private commit: (mutations: Mutation[]) => Promise<void>) {}

  /** Adds one write of about `size` bytes, committing the group first when it is full. */
  async add(m: Mutation, size: number): Promise<void> {
    const k = sizeOf(m.key);
    const full = this.bytes + size > BATCH_BYTES || this.keyBytes + k > BATCH_KEY_BYTES ||
      this.pending.length >= BATCH_MUTATIONS;
    if (this.pending.length && full) await this.flush();
    this.pending.push(m);
    this.bytes += size;
    this.keyBytes += k;
  }

  /** Commits what is pending. */
  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const list = this.pending;
    this.pending = [];
    this.bytes = 0;
    this.keyBytes = 0;
    await this.commit(list);
  }
}
