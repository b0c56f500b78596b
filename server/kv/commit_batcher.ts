/**
 * Group commit for blind writes (sets, sums and deletes; no checks). Every KV commit waits for
 * the disk to flush on a local KV, or for a network round trip on a remote one, and commits are
 * made one at a time: N requests that each commit wait for N flushes. Here, while one commit is
 * in flight, the writes of the callers that arrive meanwhile gather and go together in the next
 * one, so 16 concurrent writers need a few commits instead of 16. Nothing waits on a timer: a
 * lone writer commits at once. Each caller's writes stay together in one commit, in the order
 * given, and its promise settles when that commit has (or has failed, for every caller in it).
 */

import { utf8ByteLength } from "../../shared/slug.ts";

/** One blind write: a set (`value`), a `sum` into a KvU64, or a delete (neither). */
export type KvWrite = { key: Deno.KvKey; value?: unknown; sum?: bigint };

/** What a commit may hold: KV allows 1000 mutations, 80 KiB of keys, 800 KiB in all. */
export const COMMIT_LIMITS = { mutations: 1000, keyBytes: 78_000, bytes: 600_000 };

/** A generous estimate of an encoded KV key's size (counted, not encoded: it runs per write). */
export function keySizeOf(key: Deno.KvKey): number {
  let n = 4;
  for (const part of key) n += typeof part === "string" ? utf8ByteLength(part) + 4 : 12;
  return n;
}

/** A generous estimate of a value's encoded size (bytes as they are; JSON's length for the rest). */
export function valueSizeOf(value: unknown): number {
  if (value === undefined) return 16;
  if (value instanceof Uint8Array) return value.byteLength + 8;
  return JSON.stringify(value).length + 8;
}

/** The share of a commit's limits that `writes` take (estimates that err on the large side). */
export type CommitSize = { mutations: number; keyBytes: number; bytes: number };

/** How much of a commit `writes` take. */
export function sizeOf(writes: KvWrite[]): CommitSize {
  const size = { mutations: writes.length, keyBytes: 0, bytes: 0 };
  for (const w of writes) {
    const k = keySizeOf(w.key);
    size.keyBytes += k;
    size.bytes += k + valueSizeOf(w.value);
  }
  return size;
}

/** True when `a` and `b` together fit one commit. */
export function fitsWith(a: CommitSize, b: CommitSize): boolean {
  return a.mutations + b.mutations <= COMMIT_LIMITS.mutations &&
    a.keyBytes + b.keyBytes <= COMMIT_LIMITS.keyBytes &&
    a.bytes + b.bytes <= COMMIT_LIMITS.bytes;
}

/** The share of a commit's limits that `a` and `b` take together. */
export function addSizes(a: CommitSize, b: CommitSize): CommitSize {
  return {
    mutations: a.mutations + b.mutations,
    keyBytes: a.keyBytes + b.keyBytes,
    bytes: a.bytes + b.bytes,
  };
}

/** Adds `writes` to an atomic operation. */
export function addWrites(op: Deno.AtomicOperation, writes: KvWrite[]): Deno.AtomicOperation {
  for (const w of writes) {
    if (w.sum !== undefined) op.sum(w.key, w.sum);
    else if (w.value !== undefined) op.set(w.key, w.value);
    else op.delete(w.key);
  }
  return op;
}

/** No share of a commit. */
export const NOTHING: CommitSize = { mutations: 0, keyBytes: 0, bytes: 0 };

type Waiting = {
  writes: KvWrite[];
  size: CommitSize;
  resolve: () => void;
  reject: (err: unknown) => void;
};

export class CommitBatcher {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(private kv: Deno.Kv) {}

  /**
   * Commits `writes` together, with other callers' writes when they are waiting too. Rejects
   * when they do not fit one commit, or when the commit fails.
   */
  write(writes: KvWrite[]): Promise<void> {
    return this.writeIfFits(writes) ??
      Promise.reject(new RangeError("writes too large for one KV commit"));
  }

  /** As `write`, or null (nothing written) when `writes` do not fit one commit. */
  writeIfFits(writes: KvWrite[]): Promise<void> | null {
    const size = sizeOf(writes);
    if (!fitsWith(size, NOTHING)) return null;
    return new Promise((resolve, reject) => {
      this.waiting.push({ writes, size, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async commit(writes: KvWrite[]): Promise<void> {
    const res = await addWrites(this.kv.atomic(), writes).commit();
    if (!res.ok) throw new Error("KV refused a commit without checks");
  }

  /** Commits what waits, as many callers per commit as fit, until nothing waits. */
  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        let total = NOTHING;
        let n = 0;
        while (n < this.waiting.length && fitsWith(total, this.waiting[n].size)) {
          total = addSizes(total, this.waiting[n].size);
          n++;
        }
        const batch = this.waiting.splice(0, n);
        try {
          await this.commit(batch.flatMap((w) => w.writes));
          for (const w of batch) w.resolve();
        } catch (err) {
          // A write KV refuses (a key or value too large) must not fail the other callers: each
          // goes again on its own. Any other failure (KV unreachable) is everyone's.
          if (batch.length === 1 || !(err instanceof TypeError)) {
            for (const w of batch) w.reject(err);
          } else for (const w of batch) await this.commit(w.writes).then(w.resolve, w.reject);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
