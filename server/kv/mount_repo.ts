/**
 * Mount points with a unique path index and an index by storage config (for in-use checks).
 * Every change of a mount record moves the mounts epoch in the same commit (here, and in a
 * restore: `touchesMounts`), so the mount table can be kept in memory (epoch_cache.ts).
 */
import { EpochCache, frozenRecords } from "./epoch_cache.ts";
import { keys } from "./keys.ts";
import { listValues } from "./list_values.ts";
import { forgetMemoized, memoized } from "./request_memo.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";

/** A stored mount: the same fields the API shows (no secrets, nothing internal). */
export type MountRecord = MountView;

const MEMO = "mounts";

/** Whether a write of `key` changes the mount table (so it must move the mounts epoch). */
export function touchesMounts(key: Deno.KvKey): boolean {
  return key[0] === keys.mountsPrefix()[0];
}

/**
 * The write that moves a deleted mount's lock epoch with each commit that drops its locks. The
 * epoch is set, not deleted (epoch_cache.ts), and lapses a day later, when nothing kept can
 * remember it.
 */
function lockEpochMove(mountId: string) {
  return [keys.webdavLockEpoch(mountId), Date.now(), { expireIn: 24 * 3600_000 }] as const;
}

export class MountRepo {
  private table: EpochCache<readonly MountRecord[]>;

  constructor(private kv: Deno.Kv) {
    this.table = new EpochCache(kv);
  }

  /**
   * Every mount (a handful of keys): listed when the mounts epoch moved since the last listing,
   * and read once per request (request_memo.ts); do not mutate.
   */
  list(): Promise<readonly MountRecord[]> {
    return memoized(
      MEMO,
      () =>
        this.table.get(
          MEMO,
          keys.mountsEpoch(),
          async () => frozenRecords(await listValues<MountRecord>(this.kv, keys.mountsPrefix())),
        ),
    );
  }

  get(id: string) {
    return this.kv.get<MountRecord>(keys.mounts(id));
  }

  /** Inserts a mount; false when its path is taken. */
  async create(rec: MountRecord): Promise<boolean> {
    forgetMemoized(MEMO);
    const res = await this.kv.atomic()
      .check({ key: keys.mounts(rec.id), versionstamp: null })
      .check({ key: keys.mountsByPath(rec.mount_path), versionstamp: null })
      .set(keys.mounts(rec.id), rec)
      .set(keys.mountsByPath(rec.mount_path), rec.id)
      .set(keys.mountsByStorageConfig(rec.storage_config_id, rec.id), rec.id)
      .set(keys.mountsEpoch(), Date.now())
      .commit();
    return res.ok;
  }

  /** Replaces a mount read at `versionstamp`, moving its indexes; false on a conflict. */
  async update(prev: MountRecord, next: MountRecord, versionstamp: string): Promise<boolean> {
    forgetMemoized(MEMO);
    const op = this.kv.atomic().check({ key: keys.mounts(prev.id), versionstamp });
    if (prev.mount_path !== next.mount_path) {
      op.check({ key: keys.mountsByPath(next.mount_path), versionstamp: null })
        .delete(keys.mountsByPath(prev.mount_path))
        .set(keys.mountsByPath(next.mount_path), next.id);
    }
    if (prev.storage_config_id !== next.storage_config_id) {
      op.delete(keys.mountsByStorageConfig(prev.storage_config_id, prev.id))
        .set(keys.mountsByStorageConfig(next.storage_config_id, next.id), next.id);
    }
    op.set(keys.mountsEpoch(), Date.now());
    return (await op.set(keys.mounts(next.id), next).commit()).ok;
  }

  /** Deletes a mount, its indexes, and the WebDAV properties and locks kept for it. */
  async delete(rec: MountRecord): Promise<void> {
    forgetMemoized(MEMO);
    await this.kv.atomic()
      .delete(keys.mounts(rec.id))
      .delete(keys.mountsByPath(rec.mount_path))
      .delete(keys.mountsByStorageConfig(rec.storage_config_id, rec.id))
      .set(...lockEpochMove(rec.id))
      .set(keys.mountsEpoch(), Date.now())
      .commit();
    await this.deleteUnder(keys.webdavPropsPrefix(rec.id), () => this.kv.atomic());
    // Each commit that drops locks moves the lock epoch too, so no kept listing outlives it.
    await this.deleteUnder(
      keys.webdavLocksPrefix(rec.id),
      () => this.kv.atomic().set(...lockEpochMove(rec.id)),
    );
  }

  /** Deletes every key under `prefix`, 500 to a commit, each commit begun by `batch`. */
  private async deleteUnder(prefix: Deno.KvKey, batch: () => Deno.AtomicOperation) {
    let op = batch();
    let n = 0;
    for await (const e of this.kv.list({ prefix })) {
      op.delete(e.key);
      if (++n % 500 === 0) {
        await op.commit();
        op = batch();
      }
    }
    await op.commit();
  }
}
