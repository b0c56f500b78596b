/**
 * The views of one kind of share (pastes or files): a checked commit for every view of a share
 * with a limit (view_counter.ts), the in-memory tally for unlimited ones when there is one
 * (view_tally.ts), and reads that add the views still pending here.
 */
import { type CountResult, countView, readViewCounts } from "./view_counter.ts";
import type { ViewTally } from "./view_tally.ts";
import { type CountRead, countReuseMs, StoredCounts } from "./stored_counts.ts";

type Counted = { id: string; max_views: number };

/** Where one kind of share keeps its records and view counters, and its name in errors. */
export type ViewKeys = {
  label: string;
  record: (id: string) => Deno.KvKey;
  counter: (id: string) => Deno.KvKey;
};

/** Counts and reads the views of one kind of share. */
export class ShareViewCounts {
  /**
   * Stored counts of unlimited shares that a lookup may use again for a short while
   * (stored_counts.ts); dropped whenever the tally has written this instance's views.
   */
  readonly stored: StoredCounts;

  /**
   * `tally` counts views of unlimited shares in memory; without it they are committed.
   * `reuseMs`: how long a stored count may be used again (by default a fraction of the tally's
   * flush interval, stored_counts.ts).
   */
  constructor(
    private kv: Deno.Kv,
    private keys: ViewKeys,
    private tally?: ViewTally,
    reuseMs = countReuseMs(tally?.flushMs),
  ) {
    this.stored = new StoredCounts(reuseMs);
    tally?.onFlushed(() => this.stored.clear());
  }

  /** Counts one view of the share read at `entry` with a checked commit (view_counter.ts). */
  count(entry: { value: Counted; versionstamp: string }): Promise<CountResult> {
    const { id, max_views } = entry.value;
    const record = { key: this.keys.record(id), versionstamp: entry.versionstamp };
    return countView(this.kv, this.keys.counter(id), record, max_views);
  }

  /**
   * Counts one view of an unlimited share in memory and returns its views (null when `entry`
   * was read without them); without a tally it commits like `count`. Throws for a limited share.
   */
  async tallied(
    entry: { value: Counted; versionstamp: string; views: number | null },
  ): Promise<CountResult> {
    const { id, max_views } = entry.value;
    if (max_views > 0) {
      throw new Error(`${this.keys.label} ${id} has a view limit: count it with countView`);
    }
    if (!this.tally) return await this.count(entry);
    this.tally.add(this.keys.record(id), this.keys.counter(id));
    return { ok: true, views: entry.views === null ? null : entry.views + 1 };
  }

  /**
   * The view counts of many shares, in order (missing counters count 0), with views pending
   * here for unlimited ones (those of a share that has a limit now are dropped, view_tally.ts).
   */
  async read(recs: Counted[]): Promise<number[]> {
    const stored = await readViewCounts(this.kv, recs.map((r) => this.keys.counter(r.id)));
    return recs.map((r, i) => this.withPending(r.id, r.max_views > 0, stored[i]));
  }

  /** A share's views as a lookup read them: its stored count (StoredCounts.settle) and pending. */
  settled(read: CountRead): number {
    return this.withPending(read.id, read.limited, this.stored.settle(read));
  }

  /**
   * `stored` plus the views of share `id` counted here and not yet written, unless it has a
   * limit: those were counted while it had none, and the flush drops them (view_tally.ts), so
   * they never count against the new limit.
   */
  private withPending(id: string, limited: boolean, stored: number): number {
    return limited ? stored : stored + (this.tally?.pendingOf(this.keys.counter(id)) ?? 0);
  }
}
