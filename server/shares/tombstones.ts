/**
 * Tombstones of shares the sweeper removed after their expiry. Without one, a link that said
 * "expired or used up" would turn into "not found" once the record is gone, and a custom slug
 * would be free for anyone at once. A tombstone is one small KV value per slug (its creator and
 * when it lapses), written in the same commit as the removal and kept for
 * `TOMBSTONE_TTL_MS`. Only expiry removal leaves one: an owner's delete frees the slug at once,
 * and clearing expired shares frees the caller's tombstones.
 */
import { keys } from "../kv/keys.ts";
import { AppError, conflict } from "../errors.ts";

/** How long a swept share's slug keeps answering "expired" and stays reserved. */
export const TOMBSTONE_TTL_MS = 30 * 86_400_000;

export type ShareKind = "paste" | "file";

type Tombstone = { created_by: string; until: number };

/** Adds a share's tombstone to the commit that removes it. */
export function writeTombstone(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  share: { slug: string; created_by: string },
  now = Date.now(),
): void {
  const value: Tombstone = { created_by: share.created_by, until: now + TOMBSTONE_TTL_MS };
  op.set(keys.shareTombstones(kind, share.slug), value, { expireIn: TOMBSTONE_TTL_MS });
}

/**
 * The 409 of a slug a swept share still reserves: `slug_taken` for clients that know only that
 * code, with the message saying why and for how long.
 */
export function slugHeldBySweptShare(): AppError {
  return conflict("slug_taken", {
    message_code: "slug_recently_expired",
    days: TOMBSTONE_TTL_MS / 86_400_000,
  });
}

/** Reads and frees the tombstones of one kind of share. */
export class TombstoneRepo {
  constructor(private kv: Deno.Kv, private kind: ShareKind) {}

  /** True when a swept share's tombstone still holds `slug`. */
  async holds(slug: string): Promise<boolean> {
    const e = await this.kv.get<Tombstone>(keys.shareTombstones(this.kind, slug));
    return e.value !== null && e.value.until > Date.now();
  }

  /**
   * True when no live tombstone holds `slug`. A lapsed one that KV has not dropped yet is
   * deleted here, so the create's `versionstamp: null` check on it (`guard`) can pass.
   */
  async release(slug: string): Promise<boolean> {
    const key = keys.shareTombstones(this.kind, slug);
    const e = await this.kv.get<Tombstone>(key);
    if (e.value === null) return true;
    if (e.value.until > Date.now()) return false;
    await this.kv.atomic().check(e).delete(key).commit();
    return true;
  }

  /** Makes a commit that takes `slug` fail while a tombstone holds it (a sweep in between). */
  guard(op: Deno.AtomicOperation, slug: string): Deno.AtomicOperation {
    return op.check({ key: keys.shareTombstones(this.kind, slug), versionstamp: null });
  }

  /** Frees the tombstoned slugs of one creator, or every one (`undefined`: the admin). */
  async clear(createdBy?: string): Promise<number> {
    let n = 0;
    const iter = this.kv.list<Tombstone>({ prefix: keys.shareTombstonesPrefix(this.kind) });
    for await (const e of iter) {
      if (createdBy !== undefined && e.value.created_by !== createdBy) continue;
      await this.kv.delete(e.key);
      n++;
    }
    return n;
  }
}
