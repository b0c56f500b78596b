/**
 * Removing pastes: chosen ones (batch delete), expired or used-up ones of a caller, and those
 * whose expiry passed (the sweeper, which leaves a tombstone). A removal is checked against the record as read, and a
 * record that changed meanwhile is read again, so an edit never resurrects a deleted paste.
 */
import type { PasteEntry, PasteRepo } from "./paste_repo.ts";
import { canManage, isPastExpiry, isUsedUp } from "./paste_views.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import type { PasteBatchDeleteResult } from "../../shared/schemas/pastes.ts";

/** Paste ids are ULIDs; anything else cannot exist (and must not reach KV as a huge key). */
export const ID_PATTERN = /^[0-9A-Za-z]{26}$/;

/**
 * Removes a paste, re-reading it when it changed under us; false when it is gone. With
 * `tombstone` (removal after its expiry) its slug keeps answering "expired" (tombstones.ts).
 */
export async function removeEntry(
  repo: PasteRepo,
  entry: PasteEntry,
  tombstone = false,
): Promise<boolean> {
  let current: PasteEntry | null = entry;
  for (let attempt = 0; attempt < 5 && current; attempt++) {
    if (await repo.remove(current, tombstone)) return true;
    current = await repo.get(entry.value.id);
  }
  return false;
}

/** Deletes the given pastes the caller manages; the others are skipped and reported. */
export async function deleteMany(
  repo: PasteRepo,
  auth: Auth,
  ids: string[],
): Promise<PasteBatchDeleteResult> {
  const unique = [...new Set(ids)];
  const skipped: string[] = [];
  let deleted = 0;
  for (let i = 0; i < unique.length; i += 10) {
    await Promise.all(
      unique.slice(i, i + 10).map(async (id) => {
        const entry = ID_PATTERN.test(id) ? await repo.get(id) : null;
        if (entry && canManage(auth, entry.value) && await removeEntry(repo, entry)) deleted++;
        else skipped.push(id);
      }),
    );
  }
  return { deleted, skipped: skipped.length, skipped_ids: skipped };
}

/**
 * Deletes expired and used-up pastes the caller manages, and frees the caller's slugs that
 * swept pastes left reserved (their tombstones).
 */
export async function clearExpired(repo: PasteRepo, auth: Auth): Promise<{ deleted: number }> {
  const creator = auth.type === "admin" ? undefined : creatorOf(auth);
  await repo.tombstones.clear(creator);
  const recs = await repo.list(creator);
  const views = await repo.getViews(recs.filter((r) => r.max_views > 0));
  const now = Date.now();
  let deleted = 0;
  for (const rec of recs) {
    if (!isPastExpiry(rec, now) && !isUsedUp(rec, views.get(rec.id) ?? 0)) continue;
    const entry = await repo.get(rec.id);
    if (entry && await removeEntry(repo, entry)) deleted++;
  }
  return { deleted };
}

/** Deletes every paste whose expiry is at or before `now` (the sweeper); returns the count. */
export async function deleteExpired(repo: PasteRepo, now: number): Promise<number> {
  let deleted = 0;
  for (const { id, expiresAtMs } of await repo.listExpired(now)) {
    const entry = await repo.get(id);
    if (!entry) await repo.deleteExpiryIndex(id, expiresAtMs);
    else if (isPastExpiry(entry.value, now) && await removeEntry(repo, entry, true)) deleted++;
  }
  return deleted;
}
