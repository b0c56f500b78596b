/**
 * Finding a file share by slug for a delivery: once a slug was seen on this instance, its record
 * and view counter come in one `getMany` instead of the slug index first (paste_lookup.ts does
 * the same for pastes, with their content). The slug's hint is only a guess, checked against the
 * record read (it must still hold the slug; records and their slug index change together in
 * checked commits), so a slug moved or deleted on another instance costs one more read, never a
 * wrong answer. An unlimited share's stored count is used again for a short while
 * (stored_counts.ts); a limited one always comes with its counter.
 */
import type { ShareViewCounts } from "./share_view_counts.ts";
import { setRecent } from "../lib/recent_map.ts";
import { type ReadGroups, readGroupsOf } from "../kv/read_groups.ts";

/** Where a kind of share keeps its slug index, records and counters. */
export type LookupKeys = {
  bySlug: (slug: string) => Deno.KvKey;
  record: (id: string) => Deno.KvKey;
  counter: (id: string) => Deno.KvKey;
};

/** What a share record needs for a lookup. */
type Looked = { slug: string; max_views: number };

/** A share as read for a delivery, with its views (stored plus pending on this instance). */
export type LookedUp<R> = { value: R; versionstamp: string; views: number };

/** Slugs remembered at most (about 100 bytes each); the oldest is forgotten first. */
const MAX_HINTS = 20_000;

export class ShareLookup<R extends Looked> {
  private hints = new Map<string, string>();
  /** Reads grouped with other requests' (read_groups.ts). */
  private reads: ReadGroups;

  /** `views`: the stored counts that may be used again, and the views pending here. */
  constructor(
    kv: Deno.Kv,
    private keys: LookupKeys,
    private views: Pick<ShareViewCounts, "stored" | "settled">,
  ) {
    this.reads = readGroupsOf(kv);
  }

  /** The share holding `slug` with its views; null if none. */
  async find(slug: string): Promise<LookedUp<R> | null> {
    const hinted = this.hints.get(slug);
    if (hinted) {
      const found = await this.read(slug, hinted, true);
      if (found) return found;
      this.hints.delete(slug);
    }
    const idx = await this.reads.get<string>(this.keys.bySlug(slug));
    if (!idx.value) return null;
    const found = await this.read(slug, idx.value, false);
    if (found) this.remember(slug, idx.value);
    return found;
  }

  /** Remembers where `slug` leads (after the share was saved or read). */
  remember(slug: string, id: string): void {
    setRecent(this.hints, slug, id, MAX_HINTS);
  }

  /** The record of `id` if it still holds `slug`, with its views. */
  private async read(slug: string, id: string, reuse: boolean): Promise<LookedUp<R> | null> {
    const kept = reuse ? this.views.stored.reusable(id) : undefined;
    const wanted = kept ? [this.keys.record(id)] : [this.keys.record(id), this.keys.counter(id)];
    const [rec, counter] = await this.reads.getMany(wanted) as [
      Deno.KvEntryMaybe<R>,
      Deno.KvEntryMaybe<Deno.KvU64> | undefined,
    ];
    if (!rec.value || rec.value.slug !== slug) return null;
    // Written since its count was kept (an edit, a reset, a limit): read them together.
    if (kept && (kept.versionstamp !== rec.versionstamp || rec.value.max_views > 0)) {
      return await this.read(slug, id, false);
    }
    const limited = rec.value.max_views > 0;
    const views = this.views.settled({
      id,
      versionstamp: rec.versionstamp!,
      limited,
      kept,
      counter,
    });
    return { value: rec.value, versionstamp: rec.versionstamp!, views };
  }
}
