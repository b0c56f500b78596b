/**
 * Small collections that almost every request of a kind reads and that rarely change (the mount
 * table, a mount's WebDAV locks), kept in memory for as long as an epoch key in KV has not moved.
 * Every write of such a collection sets its epoch key in the same atomic commit, so the key's
 * versionstamp changes with the collection, on whichever instance wrote it.
 *
 * A use reads the epoch key (one key, in a read group: read_groups.ts, so requests that arrive
 * together share one `getMany`) and gets the kept value only when the versionstamp is the one it
 * was loaded under; otherwise it loads the collection again. The epoch is read before the load,
 * so a kept value is never older than its versionstamp: a change after the read moves the key
 * and the next use loads again. What a use sees is therefore as fresh as reading the collection
 * itself at that moment, on one instance or many; what is saved is the listing.
 */
import { readGroupsOf } from "./read_groups.ts";

/** How many names one cache keeps before it starts again (one per mount, at most). */
const MAX_NAMES = 1_000;

export class EpochCache<T> {
  readonly #kept = new Map<string, { stamp: string | null; value: T }>();

  constructor(private kv: Deno.Kv) {}

  /**
   * The value kept under `name` while `epoch` has the versionstamp it was loaded under, else
   * `load()`'s, kept from now on. Callers must not mutate it (`frozenRecords` makes a list of
   * records throw on a change).
   */
  async get(name: string, epoch: Deno.KvKey, load: () => Promise<T>): Promise<T> {
    const [entry] = await readGroupsOf(this.kv).getMany([epoch]);
    const hit = this.#kept.get(name);
    if (hit && hit.stamp === entry.versionstamp) return hit.value;
    const value = await load();
    if (this.#kept.size >= MAX_NAMES && !this.#kept.has(name)) this.#kept.clear();
    this.#kept.set(name, { stamp: entry.versionstamp, value });
    return value;
  }
}

/** `records` and each of them frozen: a value shared by every request must not change. */
export function frozenRecords<R extends object>(records: R[]): readonly Readonly<R>[] {
  for (const r of records) Object.freeze(r);
  return Object.freeze(records);
}
