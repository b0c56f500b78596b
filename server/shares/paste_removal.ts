/**
 * Removing pastes: chosen ones (batch delete), expired or used-up ones of a caller, and those
 * whose expiry passed (the sweeper). A removal is checked against the record as read, and a
 * record that changed meanwhile is read again, so an edit never resurrects a deleted paste.
 */
import type { PasteEntry, PasteRepo } from "./paste_repo.ts";
import { canManage, isPastExpiry, isUsedUp } from "./paste_views.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import type { PasteBatchDeleteResult } from "../../shared/schemas/pastes.ts";

/** Paste ids are ULIDs; anything else cannot exist (and must not reach KV as a huge key). */
export const ID_PATTERN = /^[0-9A-Za-z]{26}$/;

/** Removes a paste, re-reading it when it changed under us; false when it is gone. */
export async function removeEntry(repo: PasteRepo, entry: PasteEntry): Promise<boolean> {
  let current: PasteEntry | null = entry;
  for (let attempt = 0; attempt < 5 && current; attempt++) {
    if (await repo.remove(current)) return true;
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

/** Deletes expired and used-up pastes the caller manages. */
export async function clearExpired(repo: PasteRepo, auth: Auth): Promise<{ deleted: number }> {
  const recs = await repo.list(auth.type === "admin" ? undefined : creatorOf(auth));
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
    else if (isPastExpiry(entry.value, now) && await removeEntry(repo, entry)) deleted++;
  }
  return deleted;
}
