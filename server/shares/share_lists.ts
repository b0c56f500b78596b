/**
 * The list pages of pastes and files, newest first, read from the indexes share_index.ts keeps:
 * a page reads its items and the entries before it (KV has no offset), its total two counters,
 * and a search the postings of its query (share_search.ts). Nothing here reads every share.
 */
import { keys } from "../kv/keys.ts";
import { readTotal } from "../kv/stats_repo.ts";
import { readBytesTotal, readCreatorTotal, type ShareKind } from "./share_index.ts";
import { type SearchResult, searchShares } from "./share_search.ts";

/** Entries a KV list fetches per round trip at most (KV's own limit is 1000). */
const LIST_BATCH = 500;

/** One page of a list and the list's total. */
export type SharePage<R> = { items: R[]; total: number };

/**
 * Where each kind keeps its records (ULID keys, so newest last) and each creator's index (values
 * are ids), and the name of its total counter.
 */
const KINDS = {
  paste: { records: keys.pastesPrefix(), byCreator: keys.pastesByCreatorPrefix, total: "pastes" },
  file: { records: keys.filesPrefix(), byCreator: keys.filesByCreatorPrefix, total: "files" },
} as const;

/** What every kind of share record has: its id. */
type Shared = { id: string };

/** How to read one kind of share. */
export type ShareSource<R extends Shared> = {
  kind: ShareKind;
  /** Records by id, in order, missing ones left out. */
  getMany: (ids: string[]) => Promise<R[]>;
  /** The texts a search matches. */
  textsOf: (rec: R) => string[];
};

/** Record ids, for the search (share_search.ts). */
const idOf = (rec: Shared) => rec.id;

export class ShareLists<R extends Shared> {
  constructor(private kv: Deno.Kv, private source: ShareSource<R>) {}

  /** A page of all shares (no creator) or one creator's, with the total from counters. */
  async page(createdBy: string | undefined, offset: number, limit: number): Promise<SharePage<R>> {
    const [items, total] = await Promise.all([
      this.pageItems(createdBy, offset, limit),
      createdBy === undefined
        ? readTotal(this.kv, KINDS[this.source.kind].total)
        : readCreatorTotal(this.kv, this.source.kind, createdBy),
    ]);
    return { items, total };
  }

  /** The bytes of all sized shares (no creator) or one creator's, from counters. */
  bytes(createdBy: string | undefined): Promise<number> {
    return readBytesTotal(this.kv, this.source.kind, createdBy);
  }

  /**
   * A page of the shares matching `query`, with their count (at most MAX_MATCHES). `filter`
   * is a further condition on matches (every candidate's record is then read).
   */
  async search(
    query: string,
    createdBy: string | undefined,
    offset: number,
    limit: number,
    filter?: (rec: R) => boolean,
  ): Promise<SharePage<R>> {
    const found = await this.find(query, createdBy, filter);
    return { items: await this.records(found, offset, offset + limit), total: found.ids.length };
  }

  /**
   * Every record matching `query` (at most MAX_MATCHES), newest first, for totals over all
   * matches such as their bytes: reads up to that many records.
   */
  async matches(
    query: string,
    createdBy: string | undefined,
    filter?: (rec: R) => boolean,
  ): Promise<R[]> {
    const found = await this.find(query, createdBy, filter);
    return await this.records(found, 0, found.ids.length);
  }

  private find(query: string, createdBy: string | undefined, filter?: (rec: R) => boolean) {
    const { kind, getMany, textsOf } = this.source;
    return searchShares(this.kv, query, { kind, createdBy, read: getMany, idOf, textsOf, filter });
  }

  /** The records of found ids from `start` to `end`, reading those the search did not. */
  private async records(found: SearchResult<R>, start: number, end: number): Promise<R[]> {
    const ids = found.ids.slice(start, end);
    const missing = ids.filter((id) => !found.read.has(id));
    for (const rec of await this.source.getMany(missing)) {
      found.read.set(rec.id, rec);
    }
    return ids.flatMap((id) => found.read.get(id) ?? []);
  }

  /** Every share, newest first, or one creator's (a full scan: backups, migrations, clearing). */
  async all(createdBy?: string | null): Promise<R[]> {
    const { records, byCreator } = KINDS[this.source.kind];
    if (createdBy === undefined || createdBy === null) {
      const iter = this.kv.list<R>({ prefix: records }, { reverse: true });
      return await Array.fromAsync(iter, (e) => e.value);
    }
    const iter = this.kv.list<string>({ prefix: byCreator(createdBy) }, { reverse: true });
    return await this.source.getMany(await Array.fromAsync(iter, (e) => e.value));
  }

  /** The page's records: read straight for all shares, through the creator index for one. */
  private async pageItems(createdBy: string | undefined, offset: number, limit: number) {
    const opts = {
      reverse: true,
      limit: offset + limit,
      batchSize: Math.min(offset + limit, LIST_BATCH),
    };
    if (createdBy === undefined) {
      const iter = this.kv.list<R>({ prefix: KINDS[this.source.kind].records }, opts);
      return (await Array.fromAsync(iter, (e) => e.value)).slice(offset);
    }
    const byCreator = KINDS[this.source.kind].byCreator(createdBy);
    const iter = this.kv.list<string>({ prefix: byCreator }, opts);
    const ids = await Array.fromAsync(iter, (e) => e.value);
    return await this.source.getMany(ids.slice(offset));
  }
}
