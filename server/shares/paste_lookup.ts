/**
 * Finding a paste by slug for a delivery. Each instance remembers what a slug led to (a hint:
 * the paste id and its content version), so a view of a slug seen before reads the record, its
 * counter and its content (inline in the record, or its chunks by key) in one `getMany`,
 * instead of the slug index first. A hint is only a guess: it is checked against the record
 * read (same slug, same content version) and dropped when wrong, so a stale hint (a slug
 * moved, a paste edited or deleted on another instance) costs one more read, never a wrong
 * answer. Records and indexes change only together in checked commits (paste_repo.ts), so a
 * record that holds the slug is the one its index points at.
 *
 * A caller that does not use the view count (a raw text) may ask for none: when the hint says the
 * paste has no view limit, its counter is not read (one key fewer per view). A limited paste
 * always comes with its count: if the record read turns out limited, it is read again with it.
 *
 * The stored count of an unlimited paste, once read, is used again for a short while
 * (stored_counts.ts): a hot paste's counter is read a few times a second instead of on every
 * view, which takes a key off the read (about a quarter of its cost in the KV). This instance's
 * own views are always added exactly (pending here). Limited pastes always read their counter.
 */
import { keys } from "../kv/keys.ts";
import { chunkKeys, joinChunks } from "./paste_content.ts";
import type { PasteEntry, PasteRecord } from "./paste_record.ts";
import type { ShareViewCounts } from "./share_view_counts.ts";
import { setRecent } from "../lib/recent_map.ts";
import { type ReadGroups, readGroupsOf } from "../kv/read_groups.ts";

/**
 * A record as read for a delivery, with its view count (stored plus pending here; null when not
 * asked for and the paste has no limit) and, when its chunks were read in the same snapshot, its
 * content.
 */
export type PasteShareEntry = PasteEntry & {
  views: number | null;
  content?: Uint8Array<ArrayBuffer>;
};

/** What a slug led to; `limited`: the paste had a view limit. */
type SlugHint = { id: string; contentId: string; chunks: number; limited: boolean };

/** Slugs remembered at most (about 100 bytes each); the oldest is forgotten first. */
const MAX_HINTS = 20_000;
/** Chunks read along with the record and its counter (`getMany` takes 10 keys). */
const PREFETCH_CHUNKS = 8;

export class PasteLookup {
  private hints = new Map<string, SlugHint>();
  /** Reads grouped with other requests' (read_groups.ts). */
  private reads: ReadGroups;

  /** `views`: the stored counts that may be used again, and the views pending here. */
  constructor(
    kv: Deno.Kv,
    private views: Pick<ShareViewCounts, "stored" | "settled">,
  ) {
    this.reads = readGroupsOf(kv);
  }

  /**
   * The paste holding `slug` with its views (and content when it came along); null if none.
   * `withViews` false: an unlimited paste may come without its views (see the module comment).
   */
  async find(slug: string, withViews = true): Promise<PasteShareEntry | null> {
    const hint = this.hints.get(slug);
    if (hint) {
      const found = await this.read(slug, hint.id, hint, withViews || hint.limited);
      if (found) return found;
      this.hints.delete(slug);
    }
    const idx = await this.reads.get<string>(keys.pastesBySlug(slug));
    if (!idx.value) return null;
    return await this.read(slug, idx.value, null, true);
  }

  /** Remembers where a paste's slug leads (after it was saved or read). */
  remember(rec: PasteRecord): void {
    setRecent(this.hints, rec.slug, {
      id: rec.id,
      contentId: rec.content_id,
      chunks: rec.content_chunks,
      limited: rec.max_views > 0,
    }, MAX_HINTS);
  }

  /** Forgets a slug (its paste was deleted or moved away here). */
  forget(slug: string): void {
    this.hints.delete(slug);
  }

  /**
   * The record of `id` if it still holds `slug`, its views (unless `withViews` is false and the
   * record has no limit), and its chunks when hinted right.
   */
  private async read(
    slug: string,
    id: string,
    hint: SlugHint | null,
    withViews: boolean,
    reuse = true,
  ): Promise<PasteShareEntry | null> {
    const prefetch = hint && hint.chunks <= PREFETCH_CHUNKS
      ? chunkKeys({ content_id: hint.contentId, content_size: 0, content_chunks: hint.chunks })
      : [];
    const kept = withViews && reuse && hint && !hint.limited
      ? this.views.stored.reusable(id)
      : undefined;
    const readViews = withViews && !kept;
    const head = readViews ? [keys.pastes(id), keys.pasteViews(id)] : [keys.pastes(id)];
    const entries = await this.reads.getMany([...head, ...prefetch]);
    const rec = entries[0] as Deno.KvEntryMaybe<PasteRecord>;
    if (!rec.value || rec.value.slug !== slug) return null;
    const value = rec.value;
    // Limited since the hint was taken: its views decide the delivery, so read them with it.
    if (!readViews && value.max_views > 0) return await this.read(slug, id, hint, true, false);
    // Written since its count was kept (an edit or a reset of the counter): read them together.
    if (kept && kept.versionstamp !== rec.versionstamp) {
      return await this.read(slug, id, hint, true, false);
    }
    let views: number | null = null;
    if (withViews) {
      const limited = value.max_views > 0;
      const counter = kept ? undefined : entries[1] as Deno.KvEntryMaybe<Deno.KvU64>;
      views = this.views.settled({ id, versionstamp: rec.versionstamp!, limited, kept, counter });
    }
    const entry: PasteShareEntry = { value, versionstamp: rec.versionstamp!, views };
    if (
      hint?.contentId === value.content_id && hint.chunks === value.content_chunks &&
      hint.limited === value.max_views > 0
    ) {
      if (prefetch.length) {
        entry.content = joinChunks(value, entries.slice(head.length)) ?? undefined;
      }
    } else this.remember(value);
    return entry;
  }
}
