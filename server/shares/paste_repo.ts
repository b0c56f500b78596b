/**
 * Pastes in KV. The record (with its slug, creator and expiry indexes) is created or switched to
 * a new content version in one checked commit, so readers never see half-written content (see
 * `paste_content.ts` for the chunks). Views live in their own counter so that counting never
 * rewrites the record. A view finds its paste through a slug hint (`slug_hints.ts`) when it has
 * one: the record, its counter and its content in one read.
 */
import { keys } from "../kv/keys.ts";
import { commitGroupsOf } from "../kv/commit_groups.ts";
import { getManyEntries } from "../kv/list_values.ts";
import type { CountResult } from "./view_counter.ts";
import { ShareViewCounts, type ViewKeys } from "./share_view_counts.ts";
import { countCreated, countDeleted } from "../kv/stats_repo.ts";
import { addToIndex, type IndexedShare, moveInIndex, removeFromIndex } from "./share_index.ts";
import { ShareLists } from "./share_lists.ts";
import type { ViewTally } from "./view_tally.ts";
import {
  CHUNK_BYTES,
  deleteContent,
  readContent,
  storeContent,
  type StoredContent,
  writeContent,
} from "./paste_content.ts";
import { PasteLookup, type PasteShareEntry } from "./paste_lookup.ts";
import type { PasteEntry, PasteRecord } from "./paste_record.ts";
import { TombstoneRepo, writeTombstone } from "./tombstones.ts";

export { CHUNK_BYTES };
export type { PasteShareEntry };
export type { PasteEntry, PasteRecord };

export type { CountResult };

/** A chunk committed with its record: at most one chunk's bytes. */
function checkedChunk(bytes: Uint8Array): Uint8Array {
  if (bytes.length > CHUNK_BYTES) {
    throw new Error(`Content of ${bytes.length} bytes exceeds one chunk`);
  }
  return bytes;
}

const expiryMs = (rec: PasteRecord) => rec.expires_at === null ? null : Date.parse(rec.expires_at);

/** What the list indexes hold of a paste (share_index.ts): search sees its slug and remark. */
export const indexedPaste = (rec: PasteRecord): IndexedShare => ({
  id: rec.id,
  created_by: rec.created_by,
  texts: [rec.slug, rec.remark ?? ""],
});

/** Where pastes keep their records and view counters. */
const PASTE_VIEW_KEYS: ViewKeys = { label: "Paste", record: keys.pastes, counter: keys.pasteViews };

export class PasteRepo {
  private lookup: PasteLookup;
  /** List pages, totals and searches (share_lists.ts). */
  readonly lists: ShareLists<PasteRecord>;
  /** Slugs of pastes the sweeper removed after their expiry (tombstones.ts). */
  readonly tombstones: TombstoneRepo;

  private views: ShareViewCounts;

  /** `tally` counts views of unlimited pastes in memory; without it they are committed. */
  constructor(private kv: Deno.Kv, tally?: ViewTally) {
    this.views = new ShareViewCounts(kv, PASTE_VIEW_KEYS, tally);
    this.lookup = new PasteLookup(kv, this.views);
    this.tombstones = new TombstoneRepo(kv, "paste");
    this.lists = new ShareLists(kv, {
      kind: "paste",
      getMany: (ids) => this.getMany(ids),
      textsOf: (rec) => indexedPaste(rec).texts,
    });
  }

  /** Reads a paste by id; null when missing. */
  async get(id: string): Promise<PasteEntry | null> {
    const e = await this.kv.get<PasteRecord>(keys.pastes(id));
    return e.value ? { value: e.value, versionstamp: e.versionstamp! } : null;
  }

  /** Reads a paste through the slug index; null when missing. */
  async getBySlug(slug: string): Promise<PasteEntry | null> {
    const idx = await this.kv.get<string>(keys.pastesBySlug(slug));
    if (!idx.value) return null;
    const entry = await this.get(idx.value);
    return entry && entry.value.slug === slug ? entry : null;
  }

  /**
   * Reads a paste and its view count by slug; null when missing. One read that brings the
   * content too when the slug was seen before (paste_lookup.ts). With `withViews` false an
   * unlimited paste may come without its view count (null).
   */
  findShare(slug: string): Promise<PasteShareEntry & { views: number } | null>;
  findShare(slug: string, withViews: boolean): Promise<PasteShareEntry | null>;
  findShare(slug: string, withViews = true): Promise<PasteShareEntry | null> {
    return this.lookup.find(slug, withViews);
  }

  /** Reads many pastes by id, in the given order, skipping missing ones (getManyEntries). */
  async getMany(ids: string[]): Promise<PasteRecord[]> {
    const read = await getManyEntries<PasteRecord>(this.kv, ids.map((id) => keys.pastes(id)));
    return read.flatMap((e) => e.value ? [e.value] : []);
  }

  /** Every paste, newest first (a full scan: backups and clearing expired pastes). */
  list(createdBy?: string): Promise<PasteRecord[]> {
    return this.lists.all(createdBy);
  }

  /** Pastes whose expiry time is at or before `now`, from the expiry index. */
  async listExpired(now: number): Promise<{ id: string; expiresAtMs: number }[]> {
    const out: { id: string; expiresAtMs: number }[] = [];
    const iter = this.kv.list<string>({
      start: keys.pastesByExpiryPrefix(),
      end: [...keys.pastesByExpiryPrefix(), now + 1],
    });
    for await (const e of iter) out.push({ id: e.value, expiresAtMs: e.key[1] as number });
    return out;
  }

  /** Removes a stale expiry index entry (its paste is gone). */
  async deleteExpiryIndex(id: string, expiresAtMs: number): Promise<void> {
    await this.kv.delete(keys.pastesByExpiry(expiresAtMs, id));
  }

  /** Prepares a text for its record (paste_content.ts `storeContent`). */
  storeContent(text: string): Promise<StoredContent> {
    return storeContent(this.kv, text);
  }

  /** Writes content as chunks of a fresh version; throws after cleaning up on failure. */
  writeContent(bytes: Uint8Array): Promise<{ contentId: string; chunks: number }> {
    return writeContent(this.kv, bytes);
  }

  /** Reads a record's content bytes; null when its chunks are gone (the version was replaced). */
  readContent(rec: PasteRecord): Promise<Uint8Array<ArrayBuffer> | null> {
    return readContent(this.kv, rec);
  }

  /** Deletes every chunk of a content version. */
  deleteContent(contentId: string): Promise<void> {
    return deleteContent(this.kv, contentId);
  }

  /**
   * Creates the record and its indexes in one commit; "slug_taken" when the slug is in use.
   * `content`, at most CHUNK_BYTES, is written in the same commit as chunk 0 of
   * `rec.content_id` (a one-chunk paste is one commit); larger content goes through
   * writeContent first.
   */
  async insert(
    rec: PasteRecord,
    content?: Uint8Array,
  ): Promise<"ok" | "slug_taken" | "conflict"> {
    // In a group with other requests' commits (commit_groups.ts): one transaction for many.
    const op = this.tombstones.guard(commitGroupsOf(this.kv).atomic(), rec.slug)
      .check({ key: keys.pastes(rec.id), versionstamp: null })
      .check({ key: keys.pastesBySlug(rec.slug), versionstamp: null })
      .set(keys.pastes(rec.id), rec)
      .set(keys.pastesBySlug(rec.slug), rec.id)
      .set(keys.pastesByCreator(rec.created_by, rec.id), rec.id);
    // No view counter yet: a missing counter reads 0 everywhere (view_counter.ts, view_tally.ts),
    // and one key fewer makes the create's commit cheaper.
    const ms = expiryMs(rec);
    if (ms !== null) op.set(keys.pastesByExpiry(ms, rec.id), rec.id);
    if (content) op.set(keys.pasteChunks(rec.content_id, 0), checkedChunk(content));
    countCreated(op, "pastes", rec.created_at);
    addToIndex(op, "paste", indexedPaste(rec));
    if ((await op.commit()).ok) {
      this.lookup.remember(rec);
      return "ok";
    }
    return await this.slugInUse(rec.slug) ? "slug_taken" : "conflict";
  }

  /** True when a paste or a tombstone (even a lapsed one KV still holds) has the slug. */
  private async slugInUse(slug: string): Promise<boolean> {
    const [idx, tomb] = await this.kv.getMany([
      keys.pastesBySlug(slug),
      keys.shareTombstones("paste", slug),
    ]);
    return idx.value !== null || tomb.value !== null;
  }

  /**
   * Replaces a record read at `prev.versionstamp`, moving the slug and expiry indexes; with
   * `resetViews` the counter goes back to 0. Old content chunks are left to the caller.
   */
  async replace(
    prev: PasteEntry,
    next: PasteRecord,
    resetViews: boolean,
    firstChunk?: Uint8Array,
  ): Promise<"ok" | "slug_taken" | "conflict"> {
    const old = prev.value;
    const op = this.kv.atomic()
      .check({ key: keys.pastes(old.id), versionstamp: prev.versionstamp })
      .set(keys.pastes(next.id), next);
    if (firstChunk) op.set(keys.pasteChunks(next.content_id, 0), checkedChunk(firstChunk));
    if (old.slug !== next.slug) {
      this.tombstones.guard(op, next.slug);
      op.check({ key: keys.pastesBySlug(next.slug), versionstamp: null })
        .delete(keys.pastesBySlug(old.slug))
        .set(keys.pastesBySlug(next.slug), next.id);
    }
    const oldMs = expiryMs(old);
    const newMs = expiryMs(next);
    if (oldMs !== newMs) {
      if (oldMs !== null) op.delete(keys.pastesByExpiry(oldMs, old.id));
      if (newMs !== null) op.set(keys.pastesByExpiry(newMs, next.id), next.id);
    }
    if (resetViews) op.set(keys.pasteViews(next.id), new Deno.KvU64(0n));
    moveInIndex(op, "paste", indexedPaste(old), indexedPaste(next));
    if ((await op.commit()).ok) {
      this.lookup.forget(old.slug);
      this.lookup.remember(next);
      return "ok";
    }
    if (old.slug !== next.slug && await this.slugInUse(next.slug)) return "slug_taken";
    return "conflict";
  }

  /**
   * Deletes a paste read at its versionstamp, with indexes, counter and chunks; false on a race.
   * With `tombstone` (removal after its expiry) the slug keeps answering "expired".
   */
  async remove(entry: PasteEntry, tombstone = false): Promise<boolean> {
    const rec = entry.value;
    const op = this.kv.atomic()
      .check({ key: keys.pastes(rec.id), versionstamp: entry.versionstamp })
      .delete(keys.pastes(rec.id))
      .delete(keys.pastesBySlug(rec.slug))
      .delete(keys.pastesByCreator(rec.created_by, rec.id))
      .delete(keys.pasteViews(rec.id));
    const ms = expiryMs(rec);
    if (ms !== null) op.delete(keys.pastesByExpiry(ms, rec.id));
    if (tombstone) writeTombstone(op, "paste", rec);
    countDeleted(op, "pastes");
    removeFromIndex(op, "paste", indexedPaste(rec));
    if (!(await op.commit()).ok) return false;
    this.lookup.forget(rec.slug);
    await this.deleteContent(rec.content_id);
    return true;
  }

  /**
   * The view counts of many pastes (missing counters count 0), with views pending here for
   * unlimited ones (pending views of a paste that has a limit now are dropped, view_tally.ts).
   */
  async getViews(recs: Pick<PasteRecord, "id" | "max_views">[]): Promise<Map<string, number>> {
    const counts = await this.views.read(recs);
    return new Map(recs.map((r, i) => [r.id, counts[i]]));
  }

  /** Counts one delivery of a paste read at `entry` with a checked commit (view_counter.ts). */
  countView(entry: PasteEntry): Promise<CountResult> {
    return this.views.count(entry);
  }

  /**
   * Counts one delivery of an unlimited paste in memory (view_tally.ts) and returns its views;
   * without a tally it commits like `countView`. Throws for a limited paste.
   */
  tallyView(entry: PasteShareEntry): Promise<CountResult> {
    return this.views.tallied(entry);
  }
}
