/**
 * WebDAV locks, kept in KV so that every instance sees them: `["webdav_locks", mount, token]`
 * with `expireIn`. A mount holds few locks, so a check reads them all. Every change of a mount's
 * locks (a new lock, a refresh, an unlock) also sets `["webdav_lock_epoch", mount]`, in the same
 * commit: new locks are serialised by a check of it, so two LOCK requests racing for the same
 * resource cannot both win, on one instance or many; and a write's check keeps the mount's locks
 * in memory while the epoch stands (epoch_cache.ts), so it lists them only after a change. A lock
 * that KV drops when it expires moves nothing, and needs not: `expires_at` is checked on use, and
 * a kept lock whose expiry passed is listed again (it may have been refreshed).
 */
import { EpochCache, frozenRecords } from "../kv/epoch_cache.ts";
import { keys } from "../kv/keys.ts";

export type LockRecord = {
  token: string;
  mount_id: string;
  /** The storage key of the lock root within its mount ("" for the mount root). */
  root: string;
  depth: "0" | "infinity";
  scope: "exclusive" | "shared";
  /** The client's `<owner>` content, serialised. */
  owner: string;
  timeout_s: number;
  expires_at: number;
  /** Who took the lock (`admin` or `apikey:<id>`); only they can use its token. */
  principal: string;
};

export class WebdavLockRepo {
  /** Each mount's locks as listed, with the time of the listing (its wall clock, as expiries). */
  private kept: EpochCache<{ at: number; locks: readonly LockRecord[] }>;

  constructor(private kv: Deno.Kv) {
    this.kept = new EpochCache(kv);
  }

  /** The mount's live locks and the epoch entry to check when adding one (read afresh). */
  async list(mountId: string) {
    const epoch = await this.kv.get<number>(keys.webdavLockEpoch(mountId));
    return { locks: unexpired(await this.listAll(mountId), Date.now()), epoch };
  }

  /**
   * The mount's live locks (what every write checks): listed again only after the epoch moved,
   * or once a kept lock's expiry passed (a refresh that did not move the epoch, from an instance
   * of the previous version, must not let a write through a lock that is still held).
   */
  async live(mountId: string): Promise<LockRecord[]> {
    let now = Date.now(); // one reading for the checks below; a listing's own time if one is made
    const all = await this.kept.get(
      mountId,
      keys.webdavLockEpoch(mountId),
      async () => {
        now = Date.now();
        return { at: now, locks: frozenRecords(await this.listAll(mountId)) };
      },
      (kept) => kept.locks.some((l) => l.expires_at > kept.at && l.expires_at <= now),
    );
    return unexpired(all.locks, now);
  }

  private listAll(mountId: string): Promise<LockRecord[]> {
    return Array.fromAsync(
      this.kv.list<LockRecord>({ prefix: keys.webdavLocksPrefix(mountId) }),
      (e) => e.value,
    );
  }

  /** Adds a lock if no other lock was added since `epoch` was read; false on a race. */
  async create(lock: LockRecord, epoch: Deno.KvEntryMaybe<number>): Promise<boolean> {
    const res = await this.kv.atomic()
      .check(epoch)
      .set(keys.webdavLockEpoch(lock.mount_id), Date.now())
      .set(keys.webdavLocks(lock.mount_id, lock.token), lock, {
        expireIn: lock.expires_at - Date.now(),
      })
      .commit();
    return res.ok;
  }

  /**
   * Stores a refreshed lock (new timeout) if it is still held: false when it was removed (an
   * UNLOCK, or its expiry) since the caller read it, so a refresh never brings a lock back. A
   * refresh that races other refreshes of the same lock tries again; if they keep winning, the
   * lock is held and refreshed all the same, so that is true too.
   */
  async refresh(lock: LockRecord): Promise<boolean> {
    const key = keys.webdavLocks(lock.mount_id, lock.token);
    for (let attempt = 0;; attempt++) {
      const held = await this.kv.get<LockRecord>(key);
      if (!held.value || held.value.expires_at <= Date.now()) return false;
      if (attempt === 5) return true;
      const res = await this.kv.atomic()
        .check(held)
        .set(key, lock, { expireIn: lock.expires_at - Date.now() })
        .set(keys.webdavLockEpoch(lock.mount_id), Date.now())
        .commit();
      if (res.ok) return true;
    }
  }

  /** Removes one lock. */
  async delete(mountId: string, token: string): Promise<void> {
    await this.kv.atomic()
      .delete(keys.webdavLocks(mountId, token))
      .set(keys.webdavLockEpoch(mountId), Date.now())
      .commit();
  }
}

function unexpired(locks: readonly LockRecord[], now: number): LockRecord[] {
  return locks.filter((l) => l.expires_at > now);
}
