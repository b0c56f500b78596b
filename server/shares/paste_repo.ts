/**
 * Pastes in KV. A KV value holds at most 64 KiB and a commit at most 800 KiB, so content is
 * stored as UTF-8 chunks under `paste_chunks/{content_id}/{n}`, written before the record
 * that points at them (or, for content of one chunk, in the record's own commit). The record (with its slug, creator and expiry indexes) is created or
 * switched to a new content_id in one checked commit, so readers never see half-written
 * content; chunks of replaced or failed versions are deleted afterwards. Views live in their
 * own counter so that counting never rewrites the record.
 */
import { ulid } from "ulid";
import { keys } from "../kv/keys.ts";
import { type CountResult, countView, readViewCounts } from "./view_counter.ts";
import { countCreated, countDeleted } from "../kv/stats_repo.ts";
import type { ViewTally } from "./view_tally.ts";

/** Bytes per content chunk (below the 64 KiB value limit). */
export const CHUNK_BYTES = 60_000;
/** Chunks per commit while writing content: about 600 KB, well under 800 KiB. */
const CHUNKS_PER_COMMIT = 10;
/** Deletes per commit when removing chunks (the limit is 1000 mutations). */
const DELETES_PER_COMMIT = 500;

export type PasteRecord = {
  id: string;
  slug: string;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  /** 0 = unlimited. */
  max_views: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  /** The content version: chunks live under paste_chunks/{content_id}. */
  content_id: string;
  content_size: number;
  content_chunks: number;
  /** The first characters of the content, for lists. */
  preview: string;
};

/** A record together with the versionstamp it was read at. */
export type PasteEntry = { value: PasteRecord; versionstamp: string };
/** A record as read for a delivery, with its view count (stored plus pending here). */
export type PasteShareEntry = PasteEntry & { views: number };

export type { CountResult };

const expiryMs = (rec: PasteRecord) => rec.expires_at === null ? null : Date.parse(rec.expires_at);

export class PasteRepo {
  /** `tally` counts views of unlimited pastes in memory; without it they are committed. */
  constructor(private kv: Deno.Kv, private tally?: ViewTally) {}

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

  /** Reads a paste and its view count through the slug index in two reads; null when missing. */
  async findShare(slug: string): Promise<PasteShareEntry | null> {
    const idx = await this.kv.get<string>(keys.pastesBySlug(slug));
    if (!idx.value) return null;
    const [rec, counter] = await this.kv.getMany<[PasteRecord, Deno.KvU64]>([
      keys.pastes(idx.value),
      keys.pasteViews(idx.value),
    ]);
    if (!rec.value || rec.value.slug !== slug) return null;
    const views = Number(counter.value?.value ?? 0n) + this.pendingViews(idx.value);
    return { value: rec.value, versionstamp: rec.versionstamp!, views };
  }

  /** Reads many pastes by id, in the given order, skipping missing ones. */
  async getMany(ids: string[]): Promise<PasteRecord[]> {
    const out: PasteRecord[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const batch = ids.slice(i, i + 10).map((id) => keys.pastes(id));
      for (const e of await this.kv.getMany<PasteRecord[]>(batch)) if (e.value) out.push(e.value);
    }
    return out;
  }

  /** Lists pastes newest first: all of them, or those of one creator. */
  async list(createdBy?: string): Promise<PasteRecord[]> {
    if (createdBy === undefined) {
      const out: PasteRecord[] = [];
      const iter = this.kv.list<PasteRecord>({ prefix: keys.pastesPrefix() }, { reverse: true });
      for await (const e of iter) out.push(e.value);
      return out;
    }
    const ids: string[] = [];
    const iter = this.kv.list<string>({ prefix: keys.pastesByCreatorPrefix(createdBy) }, {
      reverse: true,
    });
    for await (const e of iter) ids.push(e.value);
    return await this.getMany(ids);
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

  /** Writes content as chunks of a fresh version; throws after cleaning up on failure. */
  async writeContent(bytes: Uint8Array): Promise<{ contentId: string; chunks: number }> {
    const contentId = ulid();
    const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
    try {
      for (let first = 0; first < chunks; first += CHUNKS_PER_COMMIT) {
        const op = this.kv.atomic();
        for (let n = first; n < Math.min(chunks, first + CHUNKS_PER_COMMIT); n++) {
          // slice (a copy), not subarray: a view would serialise its whole buffer.
          op.set(
            keys.pasteChunks(contentId, n),
            bytes.slice(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES),
          );
        }
        const res = await op.commit();
        if (!res.ok) throw new Error(`Cannot write chunks of content ${contentId}`);
      }
    } catch (err) {
      await this.deleteContent(contentId).catch(() => {});
      throw err;
    }
    return { contentId, chunks };
  }

  /**
   * Reads a record's content bytes; null when its chunks are gone (the version was replaced).
   * Up to 10 chunks (600 KB) come in one `getMany` by their known keys; more through a list.
   */
  async readContent(rec: PasteRecord): Promise<Uint8Array | null> {
    const out = new Uint8Array(rec.content_size);
    let offset = 0;
    let count = 0;
    const iter = rec.content_chunks <= 10
      ? await this.kv.getMany<Uint8Array[]>(
        Array.from({ length: rec.content_chunks }, (_, n) => keys.pasteChunks(rec.content_id, n)),
      )
      : this.kv.list<Uint8Array>({ prefix: keys.pasteChunksPrefix(rec.content_id) });
    for await (const e of iter) {
      if (!e.value || e.key[2] !== count || offset + e.value.length > out.length) return null;
      out.set(e.value, offset);
      offset += e.value.length;
      count++;
    }
    return count === rec.content_chunks && offset === rec.content_size ? out : null;
  }

  /** Deletes every chunk of a content version. */
  async deleteContent(contentId: string): Promise<void> {
    let batch: Deno.KvKey[] = [];
    const flush = async () => {
      const op = this.kv.atomic();
      for (const key of batch) op.delete(key);
      await op.commit();
      batch = [];
    };
    for await (const e of this.kv.list({ prefix: keys.pasteChunksPrefix(contentId) })) {
      batch.push(e.key);
      if (batch.length === DELETES_PER_COMMIT) await flush();
    }
    if (batch.length) await flush();
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
    if (content && content.length > CHUNK_BYTES) {
      throw new Error(`Inline content of ${content.length} bytes exceeds one chunk`);
    }
    const op = this.kv.atomic()
      .check({ key: keys.pastes(rec.id), versionstamp: null })
      .check({ key: keys.pastesBySlug(rec.slug), versionstamp: null })
      .set(keys.pastes(rec.id), rec)
      .set(keys.pastesBySlug(rec.slug), rec.id)
      .set(keys.pastesByCreator(rec.created_by, rec.id), rec.id)
      .set(keys.pasteViews(rec.id), new Deno.KvU64(0n));
    const ms = expiryMs(rec);
    if (ms !== null) op.set(keys.pastesByExpiry(ms, rec.id), rec.id);
    if (content && content.length > 0) op.set(keys.pasteChunks(rec.content_id, 0), content);
    countCreated(op, "pastes", rec.created_at);
    if ((await op.commit()).ok) return "ok";
    return (await this.kv.get(keys.pastesBySlug(rec.slug))).value ? "slug_taken" : "conflict";
  }

  /**
   * Replaces a record read at `prev.versionstamp`, moving the slug and expiry indexes; with
   * `resetViews` the counter goes back to 0. Old content chunks are left to the caller.
   */
  async replace(
    prev: PasteEntry,
    next: PasteRecord,
    resetViews: boolean,
  ): Promise<"ok" | "slug_taken" | "conflict"> {
    const old = prev.value;
    const op = this.kv.atomic()
      .check({ key: keys.pastes(old.id), versionstamp: prev.versionstamp })
      .set(keys.pastes(next.id), next);
    if (old.slug !== next.slug) {
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
    if ((await op.commit()).ok) return "ok";
    if (old.slug !== next.slug && (await this.kv.get(keys.pastesBySlug(next.slug))).value) {
      return "slug_taken";
    }
    return "conflict";
  }

  /** Deletes a paste read at its versionstamp, with indexes, counter and chunks; false on a race. */
  async remove(entry: PasteEntry): Promise<boolean> {
    const rec = entry.value;
    const op = this.kv.atomic()
      .check({ key: keys.pastes(rec.id), versionstamp: entry.versionstamp })
      .delete(keys.pastes(rec.id))
      .delete(keys.pastesBySlug(rec.slug))
      .delete(keys.pastesByCreator(rec.created_by, rec.id))
      .delete(keys.pasteViews(rec.id));
    const ms = expiryMs(rec);
    if (ms !== null) op.delete(keys.pastesByExpiry(ms, rec.id));
    countDeleted(op, "pastes");
    if (!(await op.commit()).ok) return false;
    await this.deleteContent(rec.content_id);
    return true;
  }

  /** The view counts of many pastes (missing counters count 0), with views pending here. */
  async getViews(ids: string[]): Promise<Map<string, number>> {
    const counts = await readViewCounts(this.kv, ids.map((id) => keys.pasteViews(id)));
    return new Map(ids.map((id, i) => [id, counts[i] + this.pendingViews(id)]));
  }

  /** Counts one delivery of a paste read at `entry` with a checked commit (view_counter.ts). */
  countView(entry: PasteEntry): Promise<CountResult> {
    const record = { key: keys.pastes(entry.value.id), versionstamp: entry.versionstamp };
    return countView(this.kv, keys.pasteViews(entry.value.id), record, entry.value.max_views);
  }

  /**
   * Counts one delivery of an unlimited paste in memory (view_tally.ts) and returns its views;
   * without a tally it commits like `countView`. Throws for a limited paste.
   */
  async tallyView(entry: PasteShareEntry): Promise<CountResult> {
    const { id, max_views } = entry.value;
    if (max_views > 0) throw new Error(`Paste ${id} has a view limit: count it with countView`);
    if (!this.tally) return await this.countView(entry);
    this.tally.add(keys.pastes(id), keys.pasteViews(id));
    return { ok: true, views: entry.views + 1 };
  }

  private pendingViews(id: string): number {
    return this.tally?.pendingOf(keys.pasteViews(id)) ?? 0;
  }
}
