/**
 * Stored view counts of unlimited shares kept for a short while on one instance, so that a hot
 * share's counter is read a few times a second instead of on every view. A view count of an
 * unlimited share is a statistic that other instances' views reach only at their next flush
 * (view_tally.ts), so using a stored count again for a fraction of that interval changes how
 * soon those views show, never what is counted. Each count is kept with the versionstamp of the
 * record it was read with: a record read at another version (an edit, a reset of the counter, a
 * limit set on any instance) must be read again with its counter. The owner drops them all when
 * this instance's own flush has moved its pending views into KV (`clear`).
 */

import { setRecent } from "../lib/recent_map.ts";

/** Shares whose count is kept at most; the least recently kept is dropped first. */
const MAX_COUNTS = 20_000;

type Kept = { versionstamp: string; stored: number; at: number };

/**
 * A share's count as a lookup read it: the record's `versionstamp` and whether it is `limited`,
 * with the count `kept` when the read used it again, or else the `counter` read with the record.
 */
export type CountRead = {
  id: string;
  versionstamp: string;
  limited: boolean;
  kept?: { stored: number };
  counter?: Deno.KvEntryMaybe<Deno.KvU64>;
};

/** Stored counts by share id, each usable for `reuseMs` after it was read (0: never kept). */
export class StoredCounts {
  private kept = new Map<string, Kept>();

  constructor(readonly reuseMs: number) {}

  /** The count of share `id` read within `reuseMs`, with the record version it was read with. */
  reusable(id: string): { versionstamp: string; stored: number } | undefined {
    const found = this.kept.get(id);
    if (found && performance.now() - found.at < this.reuseMs) return found;
    if (found) this.kept.delete(id);
    return undefined;
  }

  /** Keeps the count just read for unlimited share `id` with its record's versionstamp. */
  keep(id: string, versionstamp: string, stored: number): void {
    if (this.reuseMs <= 0) return;
    setRecent(this.kept, id, { versionstamp, stored, at: performance.now() }, MAX_COUNTS);
  }

  /**
   * The stored count of a read: the one `kept` when the read used it again, else its `counter`,
   * which is kept for the next reads while the share has no view limit (and dropped once it has
   * one).
   */
  settle({ id, versionstamp, limited, kept, counter }: CountRead): number {
    if (kept) return kept.stored;
    const stored = Number(counter?.value?.value ?? 0n);
    if (limited) this.forget(id);
    else this.keep(id, versionstamp, stored);
    return stored;
  }

  /** Drops the kept count of share `id` (it has a limit now). */
  forget(id: string): void {
    this.kept.delete(id);
  }

  /** Drops every kept count (this instance just wrote its pending views). */
  clear(): void {
    this.kept.clear();
  }
}

/**
 * How long a stored count is used again at most: views of other instances show up to this much
 * later than their flush. Never more than half the flush interval.
 */
const COUNT_REUSE_MS = 250;

/** The reuse time for a flush interval (no tally: views are committed, nothing is kept). */
export function countReuseMs(flushMs: number | undefined): number {
  return flushMs === undefined ? 0 : Math.min(COUNT_REUSE_MS, flushMs / 2);
}
