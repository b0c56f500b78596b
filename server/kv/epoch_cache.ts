/**
 * Small collections that almost every request of a kind reads and that rarely change (the mount
 * table, a mount's WebDAV locks), kept in memory for as long as an epoch key in KV has not moved.
 * Every write of such a collection sets its epoch key in the same atomic commit, so the key's
 * versionstamp changes with the collection, on whichever instance wrote it. Epoch keys are set,
 * never deleted: a deleted key would bring back the versionstamp "none" that an old kept value may
 * carry.
 *
 * A use reads the epoch key (one key, in a read group: read_groups.ts, so requests that arrive
 * together share one `getMany`) and gets the kept value only when the versionstamp is the one it
 * was loaded under; otherwise it loads the collection again. The epoch is read before the load,
 * so a kept value is never older than its versionstamp: a change after the read moves the key
 * and the next use loads again. What a use sees is therefore as fresh as reading the collection
 * itself at that moment, on one instance or many; what is saved is the listing.
 *
 * A kept value is also loaded again once it is MAX_AGE_MS old. That bounds what a writer that
 * does not move the epoch can leave stale: an instance of the previous version during a rolling
 * upgrade, which writes mounts, lock refreshes and unlocks without it, and deletes a deleted
 * mount's lock epoch.
 */
import { readGroupsOf } from "./read_groups.ts";
import { setRecent } from "../lib/recent_map.ts";

/** How many names one cache keeps, the most recently loaded (one per mount, at most). */
const MAX_NAMES = 1_000;
/** How long a kept value is used at most, however still its epoch. */
export const MAX_AGE_MS = 1_000;

type Kept<T> = { stamp: string | null; at: number; value: T };

export class EpochCache<T> {
  readonly #kept = new Map<string, Kept<T>>();

  /** `now` is the clock the age is measured by (monotonic: a stepped wall clock moves nothing). */
  constructor(private kv: Deno.Kv, private now: () => number = () => performance.now()) {}

  /**
   * The value kept under `name` while `epoch` has the versionstamp it was loaded under (and it is
   * younger than MAX_AGE_MS, and `stale` does not say otherwise), else `load()`'s, kept from now
   * on. Callers must not mutate it (`frozenRecords` makes a list of records throw on a change).
   */
  async get(
    name: string,
    epoch: Deno.KvKey,
    load: () => Promise<T>,
    stale?: (value: T) => boolean,
  ): Promise<T> {
    const [entry] = await readGroupsOf(this.kv).getMany([epoch]);
    const hit = this.#kept.get(name);
    const now = this.now();
    if (
      hit && hit.stamp === entry.versionstamp && now - hit.at < MAX_AGE_MS &&
      !stale?.(hit.value)
    ) return hit.value;
    const value = await load();
    setRecent(this.#kept, name, { stamp: entry.versionstamp, at: now, value }, MAX_NAMES);
    return value;
  }
}

/** `records` and each of them frozen: a value shared by every request must not change. */
export function frozenRecords<R extends object>(records: R[]): readonly Readonly<R>[] {
  for (const r of records) Object.freeze(r);
  return Object.freeze(records);
}
