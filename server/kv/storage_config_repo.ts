/** Storage configs, the default pointer and per-config usage counters. */
import { keys } from "./keys.ts";
import { listValues } from "./list_values.ts";
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

export class StorageConfigRepo {
  constructor(private kv: Deno.Kv) {}

  /** Every config, oldest first. */
  list(): Promise<StorageConfigRecord[]> {
    return listValues<StorageConfigRecord>(this.kv, keys.storageConfigsPrefix());
  }

  get(id: string) {
    return this.kv.get<StorageConfigRecord>(keys.storageConfigs(id));
  }

  /** The id of the default config, if one is set. */
  async getDefaultId(): Promise<string | null> {
    return (await this.kv.get<string>(keys.storageDefault())).value;
  }

  /** Inserts a config; with `makeDefault`, also points the default at it. */
  async create(rec: StorageConfigRecord, makeDefault: boolean): Promise<boolean> {
    const op = this.kv.atomic().check({ key: keys.storageConfigs(rec.id), versionstamp: null })
      .set(keys.storageConfigs(rec.id), rec);
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

  /** Replaces a config read at `versionstamp`. */
  async update(rec: StorageConfigRecord, versionstamp: string): Promise<boolean> {
    const res = await this.kv.atomic().check({ key: keys.storageConfigs(rec.id), versionstamp })
      .set(keys.storageConfigs(rec.id), rec).commit();
    return res.ok;
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
