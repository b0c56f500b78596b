/**
 * Cache epochs: counters in KV that a writer bumps when what in-memory caches hold may have gone
 * stale, so the caches of every instance sharing the KV notice, not only the writer's own.
 *
 * Two ways to notice, chosen per cache by what a stale answer costs:
 * - checked: a cached value keeps the epochs it was built under (`stamp`), and a read compares
 *   them with KV before serving it, in one read. A listing or search result then shows a write
 *   made through any instance at once. Used where the cache saves far more than one KV read (an
 *   S3 listing, a search).
 * - followed: `follow` calls back when an epoch moves, through a KV watch (about a millisecond
 *   over KV Connect). Used for the settings cache, read by every request, where a read per
 *   request would cost more than the short TTL the cache keeps anyway.
 *
 * Counters only grow (KV `sum`), so a stamp never matches again once an epoch moved. A restore
 * leaves them alone for the same reason.
 */
import { keys } from "./keys.ts";
import type { KvWrite } from "./commit_batcher.ts";

/** What an epoch covers: settings, every cache (a clear), or one storage config's listings. */
export type EpochName = "settings" | "caches" | `storage:${string}`;

/** Retry delays of a watch that failed (KV unreachable), growing to the last one. */
const RETRY_MS = [100, 500, 2_000, 5_000];

export class CacheEpochs {
  private watches = new Set<AbortController>();

  constructor(private kv: Deno.Kv, private log: (msg: string) => void = console.error) {}

  /** Adds the bump of `names` to an atomic operation (so it commits with the write itself). */
  bumpIn(op: Deno.AtomicOperation, ...names: EpochName[]): Deno.AtomicOperation {
    for (const name of names) op.sum(keys.cacheEpochs(name), 1n);
    return op;
  }

  /** The write that moves `name` on, for a commit made elsewhere (kv/commit_batcher.ts). */
  bumpWrite(name: EpochName): KvWrite {
    return { key: keys.cacheEpochs(name), sum: 1n };
  }

  /** Moves `names` on, in a commit of its own. Throws when KV refuses it. */
  async bump(...names: EpochName[]): Promise<void> {
    const res = await this.bumpIn(this.kv.atomic(), ...names).commit();
    if (!res.ok) throw new Error(`cache epochs ${names.join(", ")} not moved`);
  }

  /**
   * The current epochs of `names` as one string, to keep beside a cached value. One read per
   * ten names (the most a `getMany` takes), all of them at once.
   */
  async stamp(...names: EpochName[]): Promise<string> {
    const batches: Promise<Deno.KvEntryMaybe<Deno.KvU64>[]>[] = [];
    for (let i = 0; i < names.length; i += 10) {
      batches.push(this.kv.getMany<Deno.KvU64[]>(names.slice(i, i + 10).map(keys.cacheEpochs)));
    }
    const entries = (await Promise.all(batches)).flat();
    return entries.map((e) => String(e.value?.value ?? 0n)).join(".");
  }

  /**
   * Calls `changed` whenever one of `names` moves (not for the values they hold at the start),
   * until `stopFollowing`. A watch that breaks (KV unreachable for a while) is opened again, and
   * `changed` runs then too, since a move may have been missed. Errors are logged, never thrown:
   * this runs outside any request.
   */
  follow(names: EpochName[], changed: () => void): void {
    const stop = new AbortController();
    this.watches.add(stop);
    const watchKeys = names.map((n) => keys.cacheEpochs(n));
    const run = async () => {
      let last: string | null = null;
      for (let failures = 0; !stop.signal.aborted;) {
        let quit = () => {};
        try {
          const stream = this.kv.watch(watchKeys);
          quit = () => void stream.cancel().catch(() => {});
          stop.signal.addEventListener("abort", quit, { once: true });
          for await (const entries of stream) {
            failures = 0;
            const seen = entries.map((e) => e.versionstamp ?? "").join(".");
            if (last !== null && seen !== last) changed();
            last = seen;
          }
          if (!stop.signal.aborted) throw new Error("the watch ended");
        } catch (err) {
          if (stop.signal.aborted) break;
          this.log(`Watching cache epochs failed (retrying): ${err}`);
          last = null;
          changed(); // a move may have been missed meanwhile
          await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(failures++, 3)]));
        } finally {
          stop.signal.removeEventListener("abort", quit);
        }
      }
    };
    run().catch((err) => this.log(`Cache epoch watch ended: ${err}`));
  }

  /** Ends every `follow` (before the KV closes). */
  stopFollowing(): void {
    for (const w of this.watches) w.abort();
    this.watches.clear();
  }
}
