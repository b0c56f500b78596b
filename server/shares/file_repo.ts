/** File share records with their slug, creator, expiry and storage-config indexes. */
import { keys } from "../kv/keys.ts";
import { getManyEntries } from "../kv/list_values.ts";
import { countCreated, countDeleted } from "../kv/stats_repo.ts";
import { addToIndex, type IndexedShare, moveInIndex, removeFromIndex } from "./share_index.ts";
import { ShareLists } from "./share_lists.ts";
import type { CountResult } from "./view_counter.ts";
import { ShareViewCounts, type ViewKeys } from "./share_view_counts.ts";
import { SLUG_PATTERN } from "../../shared/slug.ts";
import type { ViewTally } from "./view_tally.ts";
import { ShareLookup } from "./share_lookup.ts";
import { TombstoneRepo, writeTombstone } from "./tombstones.ts";
import type { E2EDescriptor } from "../../shared/schemas/e2e.ts";

export type FileRecord = {
  id: string;
  slug: string;
  filename: string;
  size: number;
  mimetype: string;
  remark: string;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  use_proxy: boolean;
  storage_config_id: string;
  storage_path: string;
  etag: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  /** False for shares of mount files: the object belongs to the mount, not to the share. */
  owns_object?: boolean;
  /** Set on an end-to-end encrypted share: the object is ciphertext (docs/E2E.md). */
  e2e?: E2EDescriptor;
};

/** A presigned upload waiting for its commit. */
export type PendingUpload = {
  id: string;
  storage_config_id: string;
  storage_path: string;
  filename: string;
  size: number;
  mimetype: string;
  created_by: string;
  created_at: string;
  /** Set for multipart uploads. */
  upload_id?: string;
};

const PENDING_TTL_MS = 24 * 60 * 60_000;

function indexKeys(rec: FileRecord): Deno.KvKey[] {
  const out: Deno.KvKey[] = [
    keys.filesBySlug(rec.slug),
    keys.filesByCreator(rec.created_by, rec.id),
    keys.filesByStorageConfig(rec.storage_config_id, rec.id),
  ];
  if (rec.expires_at) out.push(keys.filesByExpiry(Date.parse(rec.expires_at), rec.id));
  return out;
}

/** What the list indexes hold of a file share (share_index.ts): its name, slug and remark. */
export const indexedFile = (rec: FileRecord): IndexedShare => ({
  id: rec.id,
  created_by: rec.created_by,
  texts: [rec.filename, rec.slug, rec.remark],
  bytes: rec.size,
});

/** A file record as read for a delivery, with its view count (stored plus pending here). */
export type FileShareEntry = { value: FileRecord; versionstamp: string; views: number };

/** Where file shares keep their records and view counters. */
const FILE_VIEW_KEYS: ViewKeys = { label: "File", record: keys.files, counter: keys.fileViews };

export class FileRepo {
  /** List pages, totals and searches (share_lists.ts). */
  readonly lists: ShareLists<FileRecord>;

  /** Slugs of file shares the sweeper removed after their expiry (tombstones.ts). */
  readonly tombstones: TombstoneRepo;

  private views: ShareViewCounts;
  private lookup: ShareLookup<FileRecord>;

  /** `tally` counts views of unlimited shares in memory; without it they are committed. */
  constructor(private kv: Deno.Kv, tally?: ViewTally) {
    this.views = new ShareViewCounts(kv, FILE_VIEW_KEYS, tally);
    this.lookup = new ShareLookup(
      kv,
      {
        bySlug: keys.filesBySlug,
        record: keys.files,
        counter: keys.fileViews,
      },
      this.views,
    );
    this.tombstones = new TombstoneRepo(kv, "file");
    this.lists = new ShareLists(kv, {
      kind: "file",
      getMany: (ids) => this.getMany(ids),
      textsOf: (rec) => indexedFile(rec).texts,
    });
  }

  get(id: string) {
    return this.kv.get<FileRecord>(keys.files(id));
  }

  /** Finds a file by slug. */
  async getBySlug(slug: string): Promise<Deno.KvEntryMaybe<FileRecord>> {
    // Every stored slug matches the pattern (creation and import check it), so nothing else
    // can exist: a malformed slug is answered without a KV read.
    const idx = SLUG_PATTERN.test(slug) ? await this.kv.get<string>(keys.filesBySlug(slug)) : null;
    if (!idx?.value) return { key: keys.files(""), value: null, versionstamp: null };
    return await this.get(idx.value);
  }

  /**
   * Reads a file and its view count by slug; null when missing. One read when the slug was seen
   * on this instance before (share_lookup.ts).
   */
  findShare(slug: string): Promise<FileShareEntry | null> {
    return this.lookup.find(slug);
  }

  /** True when a slug is free: no share, and no tombstone (even a lapsed one KV still holds). */
  async isSlugFree(slug: string): Promise<boolean> {
    const [idx, tomb] = await this.kv.getMany([
      keys.filesBySlug(slug),
      keys.shareTombstones("file", slug),
    ]);
    return idx.value === null && tomb.value === null;
  }

  /** Inserts a record and its indexes; false when the slug is taken. */
  create(rec: FileRecord): Promise<boolean> {
    return this.insert(this.kv.atomic(), rec);
  }

  /**
   * Commits `op` with the insert of `rec`: its id, slug and tombstone still free, its storage
   * used, its indexes and its count.
   */
  private async insert(op: Deno.AtomicOperation, rec: FileRecord): Promise<boolean> {
    this.tombstones.guard(op, rec.slug)
      .check({ key: keys.files(rec.id), versionstamp: null })
      .check({ key: keys.filesBySlug(rec.slug), versionstamp: null })
      .set(keys.files(rec.id), rec);
    // Shares of mount files do not use storage of their own.
    if (rec.owns_object !== false) {
      op.sum(keys.storageUsage(rec.storage_config_id), BigInt(rec.size));
    }
    for (const k of indexKeys(rec)) op.set(k, rec.id);
    addToIndex(op, "file", indexedFile(rec));
    return (await countCreated(op, "files", rec.created_at).commit()).ok;
  }

  /** Replaces a record read at `versionstamp`, moving indexes; "slug" when the new slug is taken. */
  async update(prev: FileRecord, next: FileRecord, versionstamp: string, resetViews: boolean) {
    const op = this.kv.atomic().check({ key: keys.files(prev.id), versionstamp });
    if (prev.slug !== next.slug) {
      this.tombstones.guard(op, next.slug);
      op.check({ key: keys.filesBySlug(next.slug), versionstamp: null });
    }
    for (const k of indexKeys(prev)) op.delete(k);
    for (const k of indexKeys(next)) op.set(k, next.id);
    op.set(keys.files(next.id), next);
    moveInIndex(op, "file", indexedFile(prev), indexedFile(next));
    if (resetViews) op.delete(keys.fileViews(next.id));
    const res = await op.commit();
    if (res.ok) return "ok" as const;
    if (prev.slug !== next.slug && !await this.isSlugFree(next.slug)) return "slug" as const;
    return "conflict" as const;
  }

  /**
   * Deletes a record, its indexes and counter, and subtracts its size from usage; checked
   * against the record as it is now, so a concurrent delete subtracts and counts only once.
   * With `tombstone` (removal after its expiry) the slug keeps answering "expired".
   */
  async delete(rec: FileRecord, tombstone = false): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.get(rec.id);
      const cur = entry.value;
      if (!cur) return;
      const usageKey = keys.storageUsage(cur.storage_config_id);
      const usage = await this.kv.get<Deno.KvU64>(usageKey);
      const used = usage.value?.value ?? 0n;
      const size = cur.owns_object === false ? 0n : BigInt(cur.size);
      const next = used > size ? used - size : 0n;
      const op = this.kv.atomic().check(entry).check(usage).delete(keys.files(cur.id)).delete(
        keys.fileViews(cur.id),
      )
        .set(usageKey, new Deno.KvU64(next));
      for (const k of indexKeys(cur)) op.delete(k);
      removeFromIndex(op, "file", indexedFile(cur));
      if (tombstone) writeTombstone(op, "file", cur);
      if ((await countDeleted(op, "files").commit()).ok) return;
    }
    throw new Error(`Could not delete file ${rec.id}: too much contention`);
  }

  /** Reads many files by id, in the given order, skipping missing ones (getManyEntries). */
  async getMany(ids: string[]): Promise<FileRecord[]> {
    const read = await getManyEntries<FileRecord>(this.kv, ids.map((id) => keys.files(id)));
    return read.flatMap((e) => e.value ? [e.value] : []);
  }

  /** Ids of the files on one storage config, newest first (its whole index: a scan). */
  async listIdsByConfig(configId: string): Promise<string[]> {
    const iter = this.kv.list<string>({ prefix: keys.filesByStorageConfigPrefix(configId) }, {
      reverse: true,
      batchSize: 500,
    });
    return await Array.fromAsync(iter, (e) => e.value);
  }

  /** Every file, newest first, optionally only one creator's (a full scan: backups, migrations). */
  list(createdBy: string | null): Promise<FileRecord[]> {
    return this.lists.all(createdBy);
  }

  /** Ids of files whose expiry is at or before `nowMs`. */
  async listExpiredIds(nowMs: number): Promise<string[]> {
    const ids: string[] = [];
    const iter = this.kv.list<string>({
      start: [...keys.filesByExpiryPrefix()],
      end: [...keys.filesByExpiryPrefix(), nowMs + 1],
    });
    for await (const e of iter) ids.push(e.value);
    return ids;
  }

  /** Counts one view of the file read at `entry`, within its limit (see view_counter.ts). */
  countView(entry: { value: FileRecord; versionstamp: string }): Promise<CountResult> {
    return this.views.count(entry);
  }

  /**
   * Counts one view of an unlimited share in memory (view_tally.ts) and returns its views;
   * without a tally it commits like `countView`. Throws for a limited share.
   */
  tallyView(entry: FileShareEntry): Promise<CountResult> {
    return this.views.tallied(entry);
  }

  /** The file's view count, with views pending here while it is unlimited. */
  async readViews(rec: Pick<FileRecord, "id" | "max_views">): Promise<number> {
    return (await this.readViewsOf([rec]))[0];
  }

  /** The view counts of many files, in order (see readViews). */
  readViewsOf(recs: Pick<FileRecord, "id" | "max_views">[]): Promise<number[]> {
    return this.views.read(recs);
  }

  /** Stores a presigned upload until it is committed (24 h at most). */
  async putPending(p: PendingUpload): Promise<void> {
    await this.kv.set(keys.pendingUploads(p.id), p, { expireIn: PENDING_TTL_MS });
  }

  /** Deletes a pending upload entry. */
  async deletePending(key: Deno.KvKey): Promise<void> {
    await this.kv.delete(key);
  }

  getPending(id: string) {
    return this.kv.get<PendingUpload>(keys.pendingUploads(id));
  }

  /** Creates the record and drops the pending entry in one commit. */
  commitPending(rec: FileRecord, pending: Deno.KvEntry<PendingUpload>): Promise<boolean> {
    return this.insert(this.kv.atomic().check(pending).delete(pending.key), rec);
  }
}
