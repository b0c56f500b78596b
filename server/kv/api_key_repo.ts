/** API keys, with unique indexes on the key hash and the name. */
import { keys } from "./keys.ts";
import { listValues } from "./list_values.ts";
import { countCreated, countDeleted } from "./stats_repo.ts";
import { setRecent } from "../lib/recent_map.ts";
import { type ReadGroups, readGroupsOf } from "./read_groups.ts";

export type ApiKeyRecord = {
  id: string;
  name: string;
  key_hash: string;
  /** The first characters of the key, kept for display. */
  key_prefix: string;
  permissions: number;
  role: string;
  basic_path: string;
  is_guest: boolean;
  created_at: string;
  expires_at: string | null;
};

/** Key hashes whose id this instance remembers (about 100 bytes each). */
const MAX_ID_HINTS = 10_000;

export class ApiKeyRepo {
  /** The id each key hash led to when last read here (checked against the index on use). */
  private idsByHash = new Map<string, string>();

  /** The lookup by hash, grouped with other requests' reads (read_groups.ts). */
  private reads: ReadGroups;

  constructor(private kv: Deno.Kv) {
    this.reads = readGroupsOf(kv);
  }

  /** Lists every key, oldest first (ids are ULIDs). */
  list(): Promise<ApiKeyRecord[]> {
    return listValues<ApiKeyRecord>(this.kv, keys.apiKeysPrefix());
  }

  get(id: string) {
    return this.kv.get<ApiKeyRecord>(keys.apiKeys(id));
  }

  /** Finds a key by the hash of its secret. */
  async getByHash(hash: string): Promise<ApiKeyRecord | null> {
    return (await this.findByHash(hash, [])).rec;
  }

  /**
   * Finds a key by the hash of its secret and reads `alongside` in the same snapshot. When this
   * instance saw the hash before, the record comes in that same read: the id remembered for it
   * is only a guess, used when the index still points at it, so one read serves a request.
   */
  async findByHash(
    hash: string,
    alongside: Deno.KvKey[],
  ): Promise<{ rec: ApiKeyRecord | null; alongside: Deno.KvEntryMaybe<unknown>[] }> {
    const hinted = this.idsByHash.get(hash);
    const read = [...alongside, keys.apiKeysByHash(hash)];
    if (hinted) read.push(keys.apiKeys(hinted));
    const entries = await this.reads.getMany(read);
    const idx = entries[alongside.length] as Deno.KvEntryMaybe<string>;
    const out = { rec: null as ApiKeyRecord | null, alongside: entries.slice(0, alongside.length) };
    if (!idx.value) return out;
    let rec = hinted === idx.value
      ? (entries[alongside.length + 1] as Deno.KvEntryMaybe<ApiKeyRecord>).value
      : (await this.get(idx.value)).value;
    if (rec && rec.key_hash !== hash) rec = null;
    if (rec) this.rememberId(hash, rec.id);
    out.rec = rec;
    return out;
  }

  /** Remembers the id of a hash as the most recently used; the least recent goes first. */
  private rememberId(hash: string, id: string) {
    setRecent(this.idsByHash, hash, id, MAX_ID_HINTS);
  }

  /** Inserts a key; returns "hash" or "name" when a unique index is taken. */
  async create(rec: ApiKeyRecord): Promise<"ok" | "hash" | "name"> {
    const op = this.kv.atomic()
      .check({ key: keys.apiKeys(rec.id), versionstamp: null })
      .check({ key: keys.apiKeysByHash(rec.key_hash), versionstamp: null })
      .check({ key: keys.apiKeysByName(rec.name), versionstamp: null })
      .set(keys.apiKeys(rec.id), rec)
      .set(keys.apiKeysByHash(rec.key_hash), rec.id)
      .set(keys.apiKeysByName(rec.name), rec.id);
    const res = await countCreated(op, "api_keys", rec.created_at).commit();
    if (res.ok) {
      this.rememberId(rec.key_hash, rec.id);
      return "ok";
    }
    if ((await this.kv.get(keys.apiKeysByHash(rec.key_hash))).value) return "hash";
    return "name";
  }

  /** Replaces a key read at `versionstamp`; moves the name index when the name changed. */
  async update(
    prev: ApiKeyRecord,
    next: ApiKeyRecord,
    versionstamp: string,
  ): Promise<"ok" | "conflict" | "name"> {
    const op = this.kv.atomic().check({ key: keys.apiKeys(prev.id), versionstamp })
      .set(keys.apiKeys(next.id), next);
    if (prev.name !== next.name) {
      op.check({ key: keys.apiKeysByName(next.name), versionstamp: null })
        .delete(keys.apiKeysByName(prev.name))
        .set(keys.apiKeysByName(next.name), next.id);
    }
    const res = await op.commit();
    if (res.ok) return "ok";
    if (prev.name !== next.name && (await this.kv.get(keys.apiKeysByName(next.name))).value) {
      return "name";
    }
    return "conflict";
  }

  /**
   * Deletes a key and its indexes, checked against the key as it is now (so a concurrent
   * delete counts once and a concurrent rename loses no index); nothing when it is gone.
   */
  async delete(rec: ApiKeyRecord): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const entry = await this.get(rec.id);
      const cur = entry.value;
      if (!cur) return;
      const op = this.kv.atomic()
        .check(entry)
        .delete(keys.apiKeys(cur.id))
        .delete(keys.apiKeysByHash(cur.key_hash))
        .delete(keys.apiKeysByName(cur.name))
        .delete(keys.apiKeyLastUsed(cur.id));
      if ((await countDeleted(op, "api_keys").commit()).ok) return;
    }
    throw new Error(`Could not delete API key ${rec.id}: too much contention`);
  }

  /** Records when a key was last used (a separate key so it never races with edits). */
  async touch(id: string): Promise<void> {
    await this.kv.set(keys.apiKeyLastUsed(id), new Date().toISOString());
  }

  /** Reads last-used times for many keys at once. */
  async lastUsed(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 10) {
      const batch = ids.slice(i, i + 10);
      const entries = await this.kv.getMany<string[]>(batch.map((id) => keys.apiKeyLastUsed(id)));
      entries.forEach((e, j) => e.value && out.set(batch[j], e.value));
    }
    return out;
  }
}
