/** Mount points with a unique path index and an index by storage config (for in-use checks). */
import { keys } from "./keys.ts";
import { listValues } from "./list_values.ts";
import { forgetMemoized, memoized } from "./request_memo.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";

/** A stored mount: the same fields the API shows (no secrets, nothing internal). */
export type MountRecord = MountView;

const MEMO = "mounts";

export class MountRepo {
  constructor(private kv: Deno.Kv) {}

  /** Every mount (a handful of keys), read once per request (request_memo.ts); do not mutate. */
  list(): Promise<readonly MountRecord[]> {
    return memoized(MEMO, () => listValues<MountRecord>(this.kv, keys.mountsPrefix()));
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
    return (await op.set(keys.mounts(next.id), next).commit()).ok;
  }

  /** Deletes a mount, its indexes, and the WebDAV properties and locks kept for it. */
  async delete(rec: MountRecord): Promise<void> {
    forgetMemoized(MEMO);
    await this.kv.atomic()
      .delete(keys.mounts(rec.id))
      .delete(keys.mountsByPath(rec.mount_path))
      .delete(keys.mountsByStorageConfig(rec.storage_config_id, rec.id))
      .delete(keys.webdavLockEpoch(rec.id))
      .commit();
    for (const prefix of [keys.webdavPropsPrefix(rec.id), keys.webdavLocksPrefix(rec.id)]) {
      let op = this.kv.atomic();
      let n = 0;
      for await (const e of this.kv.list({ prefix })) {
        op.delete(e.key);
        if (++n % 500 === 0) {
          await op.commit();
          op = this.kv.atomic();
        }
      }
      await op.commit();
    }
  }
}
