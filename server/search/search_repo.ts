/**
 * The mount search index: the names of every object and folder of each storage config, kept in
 * KV so that a name search reads a few key ranges instead of listing the bucket.
 *
 * Layout, and why:
 * - The index is per storage config, not per mount. A mount has no root of its own, so two mounts
 *   on one config show the same objects, and a write through either one must show in both. A
 *   query maps each visible mount to its config and a key range.
 * - `search_entries/{config}/{key}` → `{type, size, modified, indexed_at}`, one per object and
 *   folder. The whole storage key is one string part, so a folder's subtree is the key range
 *   [`dir/`, `dir0`): `0` is the character after `/`.
 * - `search_grams/{config}/{gram}/{key}` → empty, for every distinct trigram of the folded name
 *   (NFC, lower case, counted in code points, so a CJK or astral character is one) and for its
 *   last two characters. A query of 3+ characters reads trigram lists (a folder's part of a list is
 *   a key range). A 2-character query reads every gram that starts with it, which is one key
 *   range too: a name holds a bigram either at the start of one of its trigrams or at its end.
 *   The name is the key's last segment, so candidates are checked against it without a read.
 * - A row costs its key's bytes and then some, so rows are few: about one per character. Only
 *   the first 64 characters are cut into grams, so an object is at most 66 rows and one atomic
 *   commit (KV allows 80 KiB of keys per commit: enough for any key S3 allows; longer keys get
 *   fewer indexed characters, and keys over ~1,900 bytes, too long for a KV key, are left out).
 *   Names longer than their indexed part are also listed in `search_long/{config}/{key}`, which
 *   every query reads: a match past the indexed part is never missed.
 * - Batches pack whole objects into commits under KV's limits (1000 mutations, 80 KiB of keys,
 *   800 KiB in all). Removing needs no read, since the grams follow from the key. The index
 *   writes of concurrent requests share commits (kv/commit_batcher.ts): each commit waits for
 *   a disk flush, so one per written file would cap uploads at the commit rate.
 * - `indexed_at` lets a rebuild drop what it no longer sees: entries stamped before the rebuild
 *   began are gone from storage (writes during the rebuild carry later stamps).
 */
import { keys } from "../kv/keys.ts";
import { readGroupsOf } from "../kv/read_groups.ts";
import {
  addWrites,
  CommitBatcher,
  type CommitSize,
  fitsWith,
  type KvWrite,
  sizeOf,
} from "../kv/commit_batcher.ts";
import { utf8ByteLength } from "../../shared/slug.ts";

/** How many characters of a name are cut into grams (fewer for very long keys). */
export const INDEXED_CHARS = 64;
/** The key bytes one object's gram keys may take: one key per indexed character. */
const OBJECT_KEY_BUDGET = 72_000;
/** Room in a KV key (2 KiB) for the rest of a gram key. */
const MAX_INDEXED_KEY_BYTES = 1_900;
const LIST_BATCH = 500;
/** Gram rows carry nothing: the key says it all. */
const EMPTY = new Uint8Array(0);

export type SearchEntry = {
  type: "file" | "directory";
  size: number;
  modified: string | null;
  /** When this entry was last written (ms since the epoch). */
  indexed_at: number;
};

/** One object to write; `known` when its entry exists already (its grams stand). */
export type IndexedObject = { key: string; entry: SearchEntry; known?: boolean };

/** Who is rebuilding a config's index, and how far it got. */
export type RebuildRecord = {
  config_id: string;
  mount_id: string;
  state: "running" | "completed" | "failed";
  indexed: number;
  removed: number;
  started_at: string;
  finished_at: string | null;
  heartbeat_at: string;
  error: string | null;
};

/** Folds a name or query for matching: NFC, then lower case. */
export function foldName(s: string): string {
  return s.normalize("NFC").toLowerCase();
}

/** The last segment of a storage key. */
export function nameOfKey(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}

/** The distinct n-grams (in code points) of a folded string, from its first `max` characters. */
export function gramsOf(folded: string, n: number, max = Infinity): string[] {
  const chars = [...folded].slice(0, max);
  const out = new Set<string>();
  for (let i = 0; i + n <= chars.length; i++) out.add(chars.slice(i, i + n).join(""));
  return [...out];
}

/** True when a storage key fits the index at all (it is part of every one of its KV keys). */
export function isIndexable(key: string): boolean {
  return utf8ByteLength(key) <= MAX_INDEXED_KEY_BYTES;
}

/** Every gram a name is indexed under, and whether it is also a long name. */
function indexTermsOf(key: string): { grams: string[]; long: boolean } {
  const perGram = utf8ByteLength(key) + 80;
  const max = Math.min(INDEXED_CHARS, Math.floor(OBJECT_KEY_BUDGET / perGram));
  const chars = [...foldName(nameOfKey(key))];
  const grams = gramsOf(chars.slice(0, max).join(""), 3);
  if (chars.length >= 2 && chars.length <= max) grams.push(chars.slice(-2).join(""));
  return { grams, long: chars.length > max };
}

/** The key range of everything below folder `dir` of a config ("" for the whole config). */
function treeSelector(prefix: Deno.KvKey, dir: string): Deno.KvListSelector {
  return dir === "" ? { prefix } : { start: [...prefix, `${dir}/`], end: [...prefix, `${dir}0`] };
}

export class SearchRepo {
  private batcher: CommitBatcher;

  constructor(private kv: Deno.Kv) {
    this.batcher = new CommitBatcher(kv);
  }

  /**
   * Writes objects: entry, grams and long-name mark for new ones, only the entry for known ones.
   * Objects are written in name order, so that the rows of one commit share grams and touch
   * fewer pages of the store (about 2.5 times faster than random order on SQLite). `also` (a
   * cache-epoch move) goes in the commit of the last object. Writes that fit one commit go
   * through the group commit, with the index writes of other requests made at the same time.
   */
  async put(configId: string, objects: IndexedObject[], also: KvWrite[] = []): Promise<void> {
    const byName = objects.filter((o) => isIndexable(o.key))
      .map((o) => ({ o, name: foldName(nameOfKey(o.key)) }))
      .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const groups = byName.map(({ o }) => {
      const muts: KvWrite[] = [{ key: keys.searchEntries(configId, o.key), value: o.entry }];
      if (o.known) return muts;
      const { grams, long } = indexTermsOf(o.key);
      for (const g of grams) muts.push({ key: keys.searchGrams(configId, g, o.key), value: EMPTY });
      if (long) muts.push({ key: keys.searchLong(configId, o.key), value: 1 });
      return muts;
    });
    if (also.length > 0) groups.push(also);
    const all = groups.flat();
    if (all.length === 0) return;
    const batched = this.batcher.writeIfFits(all);
    if (batched) return await batched;
    await this.commitGroups(groups);
  }

  /** Deletes objects from the index (missing ones are fine). */
  async remove(configId: string, storageKeys: string[]): Promise<void> {
    await this.commitGroups(
      storageKeys.filter(isIndexable).map((key) => {
        const { grams, long } = indexTermsOf(key);
        const muts: KvWrite[] = [{ key: keys.searchEntries(configId, key) }];
        for (const g of grams) muts.push({ key: keys.searchGrams(configId, g, key) });
        if (long) muts.push({ key: keys.searchLong(configId, key) });
        return muts;
      }),
    );
  }

  /**
   * The entries that exist among `storageKeys`, read with other requests' reads (read_groups.ts):
   * every file written makes this read of its entry and the folders above it.
   */
  async getEntries(configId: string, storageKeys: string[]): Promise<Map<string, SearchEntry>> {
    const chunks: Deno.KvKey[][] = [];
    for (let i = 0; i < storageKeys.length; i += 10) {
      chunks.push(storageKeys.slice(i, i + 10).map((k) => keys.searchEntries(configId, k)));
    }
    const reads = readGroupsOf(this.kv);
    const got = await Promise.all(chunks.map((c) => reads.getMany<SearchEntry>(c)));
    const out = new Map<string, SearchEntry>();
    for (const e of got.flat()) if (e.value) out.set(e.key[2] as string, e.value);
    return out;
  }

  /** The entries below folder `dir` ("" for all of the config), in key order. */
  async *listTree(configId: string, dir: string): AsyncGenerator<IndexedObject> {
    const sel = treeSelector(keys.searchEntriesPrefix(configId), dir);
    for await (const e of this.kv.list<SearchEntry>(sel, { batchSize: LIST_BATCH })) {
      yield { key: e.key[2] as string, entry: e.value };
    }
  }

  /** Keys below `dir` indexed under trigram `gram`, in key order. */
  async *gramKeys(configId: string, gram: string, dir: string): AsyncGenerator<string> {
    const sel = treeSelector(keys.searchGramsPrefix(configId, gram), dir);
    for await (const e of this.kv.list(sel, { batchSize: LIST_BATCH })) yield e.key[3] as string;
  }

  /** Keys below `dir` whose indexed names hold the two characters `pair` (repeats possible). */
  async *pairKeys(configId: string, pair: string, dir: string): AsyncGenerator<string> {
    const prefix = keys.searchGramsPrefix(configId);
    const sel = { start: [...prefix, pair], end: [...prefix, `${pair}\u{10FFFF}`] };
    for await (const e of this.kv.list(sel, { batchSize: LIST_BATCH })) {
      const key = e.key[3] as string;
      if (dir === "" || key.startsWith(`${dir}/`)) yield key;
    }
  }

  /** Keys below `dir` whose names are longer than what grams cover. */
  async *longKeys(configId: string, dir: string): AsyncGenerator<string> {
    const sel = treeSelector(keys.searchLongPrefix(configId), dir);
    for await (const e of this.kv.list(sel, { batchSize: LIST_BATCH })) yield e.key[2] as string;
  }

  /** Deletes a config's whole index and rebuild record (for a storage config that is gone). */
  async purge(configId: string): Promise<void> {
    const prefixes = [
      keys.searchEntriesPrefix(configId),
      keys.searchGramsPrefix(configId),
      keys.searchLongPrefix(configId),
    ];
    for (const prefix of prefixes) {
      let batch: KvWrite[][] = [];
      for await (const e of this.kv.list({ prefix }, { batchSize: LIST_BATCH })) {
        batch.push([{ key: e.key }]);
        if (batch.length === LIST_BATCH) {
          await this.commitGroups(batch);
          batch = [];
        }
      }
      await this.commitGroups(batch);
    }
    await this.kv.delete(keys.searchRebuilds(configId));
  }

  /** A config's rebuild record. */
  getRebuild(configId: string) {
    return this.kv.get<RebuildRecord>(keys.searchRebuilds(configId));
  }

  /** Writes a rebuild record; with `versionstamp`, only if unchanged since (false otherwise). */
  async setRebuild(rec: RebuildRecord, versionstamp?: string | null): Promise<boolean> {
    const key = keys.searchRebuilds(rec.config_id);
    const op = this.kv.atomic();
    if (versionstamp !== undefined) op.check({ key, versionstamp });
    return (await op.set(key, rec).commit()).ok;
  }

  /** Packs groups of mutations into as few commits as KV's limits allow; a group never splits. */
  private async commitGroups(groups: KvWrite[][]): Promise<void> {
    let op = this.kv.atomic();
    let size: CommitSize = { mutations: 0, keyBytes: 0, bytes: 0 };
    for (const group of groups) {
      const more = sizeOf(group);
      if (!fitsWith(size, more)) {
        await op.commit();
        op = this.kv.atomic();
        size = { mutations: 0, keyBytes: 0, bytes: 0 };
      }
      addWrites(op, group);
      size = {
        mutations: size.mutations + more.mutations,
        keyBytes: size.keyBytes + more.keyBytes,
        bytes: size.bytes + more.bytes,
      };
    }
    if (size.mutations > 0) await op.commit();
  }
}
