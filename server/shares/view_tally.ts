/**
 * Views of shares *without* a view limit, counted in memory and added to their KV counters
 * with `sum` a short while later (`flushMs`) and on close. For an unlimited share a view count
 * is a statistic, so a view costs no durable commit; a crash loses at most the views of one
 * interval on this instance. Limited shares never come here: they keep the exact checked
 * commit of `view_counter.ts`.
 *
 * A flush adds a share's pending views only while its record is still unlimited, checked in
 * the same commit: views tallied before an owner set a limit (which resets the counter), or
 * before the share was deleted, are dropped rather than charged against the new limit.
 */

type Pending = { record: Deno.KvKey; counter: Deno.KvKey; n: number };

/** Records read per `getMany` (the KV limit is 10 keys). */
const READ_BATCH = 10;
/** Flush attempts per batch when records change between the read and the commit. */
const MAX_ATTEMPTS = 10;

const idOf = (key: Deno.KvKey) => JSON.stringify(key);

export class ViewTally {
  private pending = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private flushed: (() => void)[] = [];

  /** `flushMs`: how long a counted view may wait in memory before it is written. */
  constructor(
    private kv: Deno.Kv,
    readonly flushMs: number,
    private log: (msg: string) => void = console.error,
  ) {}

  /** Counts one view of the unlimited share at `record`; returns this instance's pending views. */
  add(record: Deno.KvKey, counter: Deno.KvKey): number {
    if (this.closed) throw new Error("View tally is closed: no view can be counted");
    const id = idOf(counter);
    const p = this.pending.get(id) ?? { record, counter, n: 0 };
    p.n++;
    this.pending.set(id, p);
    this.schedule();
    return p.n;
  }

  /** Calls `fn` after every flush, once its views are in KV (or back in pending). */
  onFlushed(fn: () => void): void {
    this.flushed.push(fn);
  }

  /** Views of `counter` counted here and not yet written to KV. */
  pendingOf(counter: Deno.KvKey): number {
    return this.pending.get(idOf(counter))?.n ?? 0;
  }

  /** Writes every pending view now (waits for a flush already under way). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() =>
      this.write().finally(() => {
        for (const fn of this.flushed) fn();
      })
    );
    return this.flushing;
  }

  /** Stops the timer and writes what is pending; counting afterwards throws. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private schedule() {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((err) => this.log(`View counts not written yet: ${err}`));
    }, this.flushMs);
  }

  /** Takes the pending views and writes them batch by batch; failures go back to pending. */
  private async write(): Promise<void> {
    const items = [...this.pending.values()];
    this.pending.clear();
    for (let i = 0; i < items.length; i += READ_BATCH) {
      const batch = items.slice(i, i + READ_BATCH);
      try {
        await this.writeBatch(batch);
      } catch (err) {
        for (const p of items.slice(i)) this.restore(p);
        if (!this.closed) this.schedule();
        throw err;
      }
    }
  }

  /** Adds a batch in one commit, each counter checked against its record being unlimited. */
  private async writeBatch(batch: Pending[]): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const records = await this.kv.getMany<{ max_views?: number }[]>(batch.map((p) => p.record));
      const op = this.kv.atomic();
      let sums = 0;
      batch.forEach((p, i) => {
        const rec = records[i];
        // Deleted, or limited since (its counter was reset): these views are not carried over.
        if (!rec.value || (rec.value.max_views ?? 0) > 0) return;
        op.check(rec).sum(p.counter, BigInt(p.n));
        sums++;
      });
      if (sums === 0 || (await op.commit()).ok) return;
    }
    throw new Error("Cannot write view counts: the shares keep changing");
  }

  private restore(p: Pending) {
    const id = idOf(p.counter);
    const cur = this.pending.get(id);
    if (cur) cur.n += p.n;
    else this.pending.set(id, { ...p });
  }
}
