/**
 * WebDAV locks, kept in KV so that every instance sees them: `["webdav_locks", mount, token]`
 * with `expireIn`. A mount holds few locks, so a check lists them all. New locks are
 * serialised per mount by a checked write of `["webdav_lock_epoch", mount]`: two LOCK requests
 * racing for the same resource cannot both win, on one instance or many.
 */
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
  constructor(private kv: Deno.Kv) {}

  /** The mount's live locks and the epoch entry to check when adding one. */
  async list(mountId: string) {
    const epoch = await this.kv.get<number>(keys.webdavLockEpoch(mountId));
    return { locks: await this.live(mountId), epoch };
  }

  /** The mount's live locks (one listing; what every write checks). */
  async live(mountId: string): Promise<LockRecord[]> {
    const now = Date.now();
    const locks: LockRecord[] = [];
    for await (const e of this.kv.list<LockRecord>({ prefix: keys.webdavLocksPrefix(mountId) })) {
      if (e.value.expires_at > now) locks.push(e.value);
    }
    return locks;
  }

  /** Adds a lock if no other lock was added since `epoch` was read; false on a race. */
  async create(lock: LockRecord, epoch: Deno.KvEntryMaybe<number>): Promise<boolean> {
    const res = await this.kv.atomic()
      .check(epoch)
      .set(keys.webdavLockEpoch(lock.mount_id), (epoch.value ?? 0) + 1)
      .set(keys.webdavLocks(lock.mount_id, lock.token), lock, {
        expireIn: lock.expires_at - Date.now(),
      })
      .commit();
    return res.ok;
  }

  /** Stores a refreshed lock (new timeout). */
  async refresh(lock: LockRecord): Promise<void> {
    await this.kv.set(keys.webdavLocks(lock.mount_id, lock.token), lock, {
      expireIn: lock.expires_at - Date.now(),
    });
  }

  /** Removes one lock. */
  async delete(mountId: string, token: string): Promise<void> {
    await this.kv.delete(keys.webdavLocks(mountId, token));
  }
}
