/** Storage configs, the default pointer and per-config usage counters. */
import { keys } from "./keys.ts";
import { listValues } from "./list_values.ts";
import { readGroupsOf } from "./read_groups.ts";
import { countCreated, countDeleted } from "./stats_repo.ts";
import type { ProviderType } from "../../shared/schemas/storage_configs.ts";

export type StorageConfigRecord = {
  id: string;
  name: string;
  provider_type: ProviderType;
  endpoint_url: string;
  bucket_name: string;
  region: string;
  access_key_id: string;
  /** AES-256-GCM ciphertext from SecretBox; "" for local configs. */
  secret_access_key_enc: string;
  path_style: boolean;
  default_folder: string;
  is_public: boolean;
  custom_host: string;
  signature_expires_in: number;
  total_storage_bytes: number | null;
  root_dir: string | null;
  created_at: string;
  updated_at: string;
};

/** The fields a local storage config sets itself; the rest are blank (no endpoint, bucket or keys). */
type LocalConfigFields = Pick<
  StorageConfigRecord,
  "id" | "name" | "is_public" | "signature_expires_in" | "root_dir" | "created_at" | "updated_at"
>;

/** A local storage config record: `fields`, and blanks for what only S3 stores use. */
export function localStorageConfig(fields: LocalConfigFields): StorageConfigRecord {
  return {
    provider_type: "local",
    endpoint_url: "",
    bucket_name: "",
    region: "",
    access_key_id: "",
    secret_access_key_enc: "",
    path_style: false,
    default_folder: "",
    custom_host: "",
    total_storage_bytes: null,
    ...fields,
  };
}

/**
 * How a config name is compared for uniqueness: trimmed, case-folded. The default local config's
 * empty name (shown in the reader's language) is never indexed.
 */
export function storageConfigNameKey(name: string): string {
  return name.trim().toLocaleLowerCase("en-US");
}

/** The name index entry a write of `rec` checks and sets, or null for an unnamed config. */
function nameIndex(name: string) {
  const key = storageConfigNameKey(name);
  return key ? keys.storageConfigsByName(key) : null;
}

/** What a write saw of the name index: the versionstamp to check (null: no entry). */
export type NameClaim = { versionstamp: string | null } | null;

export class StorageConfigRepo {
  constructor(private kv: Deno.Kv) {}

  /** Every config, oldest first. */
  list(): Promise<StorageConfigRecord[]> {
    return listValues<StorageConfigRecord>(this.kv, keys.storageConfigsPrefix());
  }

  get(id: string) {
    return this.kv.get<StorageConfigRecord>(keys.storageConfigs(id));
  }

  /** The same read in a read group (read_groups.ts): every file operation makes it. */
  read(id: string) {
    return readGroupsOf(this.kv).get<StorageConfigRecord>(keys.storageConfigs(id));
  }

  /** The id of the default config, if one is set. */
  async getDefaultId(): Promise<string | null> {
    return (await this.kv.get<string>(keys.storageDefault())).value;
  }

  /**
   * Reads the name index entry of `name` (null for the unnamed default). The entry may be stale
   * (a restore or an older version wrote configs without it); the service decides whether the
   * name is taken from the configs themselves and uses this only to make the write atomic.
   */
  async claimName(name: string): Promise<NameClaim> {
    const key = nameIndex(name);
    if (!key) return null;
    return { versionstamp: (await this.kv.get<string>(key)).versionstamp };
  }

  /**
   * Inserts a config; with `makeDefault`, also points the default at it. The name index must
   * still be as `claim` saw it. False when the commit lost a race.
   */
  async create(rec: StorageConfigRecord, makeDefault: boolean, claim: NameClaim): Promise<boolean> {
    const op = this.kv.atomic().check({ key: keys.storageConfigs(rec.id), versionstamp: null })
      .set(keys.storageConfigs(rec.id), rec);
    const byName = nameIndex(rec.name);
    if (byName && claim) {
      op.check({ key: byName, versionstamp: claim.versionstamp }).set(byName, rec.id);
    }
    if (makeDefault) op.set(keys.storageDefault(), rec.id);
    return (await countCreated(op, "storage_configs", rec.created_at).commit()).ok;
  }

  /** Creates the first config only while no default exists (first start, many instances). */
  async createInitialDefault(rec: StorageConfigRecord): Promise<boolean> {
    const op = this.kv.atomic()
      .check({ key: keys.storageDefault(), versionstamp: null })
      .set(keys.storageConfigs(rec.id), rec)
      .set(keys.storageDefault(), rec.id);
    const res = await countCreated(op, "storage_configs", rec.created_at).commit();
    return res.ok;
  }

  /**
   * Replaces a config read at `versionstamp`. A new name takes its index entry as `claim` saw it,
   * and the old name's entry is dropped when it still points at this config.
   */
  async update(
    prev: StorageConfigRecord,
    rec: StorageConfigRecord,
    versionstamp: string,
    claim: NameClaim,
  ): Promise<boolean> {
    const op = this.kv.atomic().check({ key: keys.storageConfigs(rec.id), versionstamp })
      .set(keys.storageConfigs(rec.id), rec);
    const oldName = nameIndex(prev.name);
    const newName = nameIndex(rec.name);
    if (oldName?.[1] !== newName?.[1]) {
      if (oldName) {
        const old = await this.kv.get<string>(oldName);
        if (old.value === rec.id) op.check(old).delete(oldName);
      }
      if (newName && claim) {
        op.check({ key: newName, versionstamp: claim.versionstamp }).set(newName, rec.id);
      }
    }
    return (await op.commit()).ok;
  }

  /** Points the default at a config. */
  async setDefault(id: string): Promise<void> {
    await this.kv.set(keys.storageDefault(), id);
  }

  /** True when a file or mount still refers to the config. */
  async isInUse(id: string): Promise<boolean> {
    for (
      const prefix of [keys.filesByStorageConfigPrefix(id), keys.mountsByStorageConfigPrefix(id)]
    ) {
      for await (const _ of this.kv.list({ prefix }, { limit: 1 })) return true;
    }
    return false;
  }

  /** Deletes a config and its usage counter; moves the default to `nextDefault` if given. */
  async delete(
    id: string,
    versionstamp: string,
    nextDefault: string | null | undefined,
  ): Promise<boolean> {
    const op = this.kv.atomic().check({ key: keys.storageConfigs(id), versionstamp })
      .delete(keys.storageConfigs(id)).delete(keys.storageUsage(id));
    const byName = nameIndex((await this.get(id)).value?.name ?? "");
    if (byName) {
      const entry = await this.kv.get<string>(byName);
      if (entry.value === id) op.check(entry).delete(byName);
    }
    if (nextDefault !== undefined) {
      if (nextDefault) op.set(keys.storageDefault(), nextDefault);
      else op.delete(keys.storageDefault());
    }
    return (await countDeleted(op, "storage_configs").commit()).ok;
  }

  /** Bytes stored through Cubby on a config. */
  async usedBytes(id: string): Promise<number> {
    const { value } = await this.kv.get<Deno.KvU64>(keys.storageUsage(id));
    return value ? Number(value.value) : 0;
  }
}
