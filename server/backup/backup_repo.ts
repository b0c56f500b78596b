/**
 * The KV side of backup and restore. A backup holds records only; this module turns each
 * record back into every key it owns (record, indexes, content chunks, counters), exactly as
 * the entity's own repo writes them, so a restore rebuilds indexes instead of trusting them
 * (counters, such as the dashboard's and the per-creator totals, are recounted after it).
 * It also lists every key of a module, for overwrite mode, and reads settings.
 */
import { ulid } from "../lib/ulid.ts";
import { type EntityPrefix, keys } from "../kv/keys.ts";
import { CHUNK_BYTES, indexedPaste, type PasteRecord } from "../shares/paste_repo.ts";
import { type FileRecord, indexedFile } from "../shares/file_repo.ts";
import { gramRows } from "../shares/share_index.ts";
import type { MountRecord } from "../kv/mount_repo.ts";
import { storageConfigNameKey, type StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { ApiKeyRecord } from "../kv/api_key_repo.ts";
import type { AdminAccount } from "../kv/account_repo.ts";
import { type Mutation, RestoreJournal } from "./backup_journal.ts";
import type { BackupModule } from "../../shared/schemas/backup.ts";

export type { Mutation };

/** Every top-level prefix a module owns (single keys such as ["admin"] are handled apart). */
const MODULE_PREFIXES: Record<BackupModule, EntityPrefix[]> = {
  text_management: [
    "pastes",
    "pastes_by_slug",
    "pastes_by_creator",
    "pastes_by_expiry",
    "paste_chunks",
    "paste_views",
    "paste_grams",
    "paste_grams_pending",
    "paste_creator_totals",
  ],
  file_management: [
    "files",
    "files_by_slug",
    "files_by_creator",
    "files_by_expiry",
    "files_by_storage_config",
    "file_views",
    "file_grams",
    "file_grams_pending",
    "file_creator_totals",
    "file_bytes_totals",
  ],
  mount_management: ["mounts", "mounts_by_path", "mounts_by_storage_config"],
  // Usage counters and the default pointer are recomputed by the restore, not cleared.
  storage_config: ["storage_configs", "storage_configs_by_name"],
  key_management: ["api_keys", "api_keys_by_hash", "api_keys_by_name", "api_key_last_used"],
  account_management: [],
  system_settings: ["settings"],
};

/** Characters of content kept in a paste record for lists (as PasteService does). */
const PREVIEW_CHARS = 200;
const encoder = new TextEncoder();

const iso = (s: string) => new Date(Date.parse(s)).toISOString();
const isoOrNull = (s: string | null) => s === null ? null : iso(s);

/** A paste as a backup holds it: the record's fields plus its content and view count. */
export type PasteInput =
  & Omit<
    PasteRecord,
    "content_id" | "content_size" | "content_chunks" | "content_text" | "preview"
  >
  & { content: string; views: number };

export class BackupRepo {
  constructor(private kv: Deno.Kv) {}

  /** The journal that makes a restore all or nothing. */
  journal(): RestoreJournal {
    return new RestoreJournal(this.kv);
  }

  /** Every key a module holds now: its records, indexes, chunks and counters. */
  async moduleKeys(module: BackupModule): Promise<Deno.KvKey[]> {
    const out: Deno.KvKey[] = [];
    for (const name of MODULE_PREFIXES[module]) {
      const iter = this.kv.list({ prefix: keys.entityPrefix(name) }, { batchSize: 200 });
      for await (const e of iter) out.push(e.key);
    }
    if (module === "account_management") out.push(keys.admin());
    return out;
  }

  /** Every setting, as stored under ["settings", key]. */
  async listSettings(): Promise<{ key: string; value: unknown }[]> {
    const out: { key: string; value: unknown }[] = [];
    for await (const e of this.kv.list({ prefix: keys.settingsPrefix() })) {
      out.push({ key: String(e.key[1]), value: e.value });
    }
    return out;
  }

  /** The usage counters of some configs (missing counts 0). */
  async readUsage(ids: string[]): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (let i = 0; i < ids.length; i += 10) {
      const batch = ids.slice(i, i + 10);
      const entries = await this.kv.getMany(batch.map((id) => keys.storageUsage(id)));
      entries.forEach((e, j) => {
        out.set(batch[j], e.value instanceof Deno.KvU64 ? e.value.value : 0n);
      });
    }
    return out;
  }

  /** The keys of a paste: content chunks (under a fresh content id), record, indexes, views. */
  pasteMutations(p: PasteInput): Mutation[] {
    const bytes = encoder.encode(p.content);
    const contentId = ulid();
    const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
    const out: Mutation[] = [];
    for (let n = 0; n < chunks; n++) {
      const value = bytes.slice(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES);
      out.push({ key: keys.pasteChunks(contentId, n), value });
    }
    const rec: PasteRecord = {
      id: p.id,
      slug: p.slug,
      remark: p.remark,
      password_hash: p.password_hash,
      expires_at: isoOrNull(p.expires_at),
      max_views: p.max_views,
      created_at: p.created_at,
      updated_at: p.updated_at,
      created_by: p.created_by,
      content_id: contentId,
      content_size: bytes.length,
      content_chunks: chunks,
      // A ciphertext makes no preview.
      preview: p.e2e
        ? ""
        : Array.from(p.content.slice(0, PREVIEW_CHARS * 2)).slice(0, PREVIEW_CHARS).join(""),
      ...(p.e2e ? { e2e: p.e2e } : {}),
    };
    out.push(
      { key: keys.pastes(rec.id), value: rec },
      { key: keys.pastesBySlug(rec.slug), value: rec.id },
      { key: keys.pastesByCreator(rec.created_by, rec.id), value: rec.id },
      { key: keys.pasteViews(rec.id), value: new Deno.KvU64(BigInt(p.views)) },
      ...gramRows("paste", indexedPaste(rec)),
    );
    if (rec.expires_at) {
      out.push({ key: keys.pastesByExpiry(Date.parse(rec.expires_at), rec.id), value: rec.id });
    }
    return out;
  }

  /** The keys of a file share: record, indexes and view counter. */
  fileMutations(f: FileRecord & { views: number }): Mutation[] {
    const { views, ...fields } = f;
    const rec: FileRecord = { ...fields, expires_at: isoOrNull(fields.expires_at) };
    const out: Mutation[] = [
      { key: keys.files(rec.id), value: rec },
      { key: keys.filesBySlug(rec.slug), value: rec.id },
      { key: keys.filesByCreator(rec.created_by, rec.id), value: rec.id },
      { key: keys.filesByStorageConfig(rec.storage_config_id, rec.id), value: rec.id },
      ...gramRows("file", indexedFile(rec)),
    ];
    if (rec.expires_at) {
      out.push({ key: keys.filesByExpiry(Date.parse(rec.expires_at), rec.id), value: rec.id });
    }
    if (views > 0) out.push({ key: keys.fileViews(rec.id), value: new Deno.KvU64(BigInt(views)) });
    return out;
  }

  /** The keys of a mount: record, path index and storage-config index. */
  mountMutations(m: MountRecord): Mutation[] {
    return [
      { key: keys.mounts(m.id), value: m },
      { key: keys.mountsByPath(m.mount_path), value: m.id },
      { key: keys.mountsByStorageConfig(m.storage_config_id, m.id), value: m.id },
    ];
  }

  /** The record of a storage config (its secret stays sealed as it was) and its name index. */
  configMutations(c: StorageConfigRecord): Mutation[] {
    const name = storageConfigNameKey(c.name);
    return [
      { key: keys.storageConfigs(c.id), value: c },
      ...(name ? [{ key: keys.storageConfigsByName(name), value: c.id }] : []),
    ];
  }

  /** Removes the record of a storage config (its usage counter is handled by usageMutations). */
  removeConfigMutation(id: string): Mutation {
    return { key: keys.storageConfigs(id), delete: true };
  }

  /** The default storage config pointer (null removes it). */
  defaultConfigMutation(id: string | null): Mutation {
    return id ? { key: keys.storageDefault(), value: id } : {
      key: keys.storageDefault(),
      delete: true,
    };
  }

  /** Usage counters: set for configs that stay, deleted for configs that go. */
  usageMutations(usage: Map<string, bigint>, removed: string[]): Mutation[] {
    const out: Mutation[] = [];
    for (const [id, bytes] of usage) {
      out.push({ key: keys.storageUsage(id), value: new Deno.KvU64(bytes > 0n ? bytes : 0n) });
    }
    for (const id of removed) out.push({ key: keys.storageUsage(id), delete: true });
    return out;
  }

  /** The keys of an API key: record, hash and name indexes, last-used time. */
  apiKeyMutations(k: ApiKeyRecord & { last_used: string | null }): Mutation[] {
    const { last_used, ...rec } = k;
    const out: Mutation[] = [
      { key: keys.apiKeys(rec.id), value: rec },
      { key: keys.apiKeysByHash(rec.key_hash), value: rec.id },
      { key: keys.apiKeysByName(rec.name), value: rec.id },
    ];
    if (last_used) out.push({ key: keys.apiKeyLastUsed(rec.id), value: last_used });
    return out;
  }

  /** The admin account. */
  accountMutation(account: AdminAccount): Mutation {
    return { key: keys.admin(), value: account };
  }

  /** One setting. */
  settingMutation(key: string, value: unknown): Mutation {
    return { key: keys.settings(key), value };
  }
}
