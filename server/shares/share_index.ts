/**
 * The list indexes of pastes and files, so that a list page reads what its items cost and never
 * every record:
 * - `{kind}_creator_totals/{creator}/{created|deleted}`: how many shares each creator has, for a
 *   key user's list total, summed in the commits that create and delete shares. KV sums only add to
 *   a u64, so a total is two monotonic counters read as their difference (as the dashboard's are;
 *   the admin's total is the dashboard's counter).
 * - `{kind}_grams/{gram}/{id}` → creator: the search postings. A share is posted under every
 *   distinct trigram of its folded texts (slug, remark, a file's name; the first INDEXED_CHARS
 *   characters of each), and under each text's last two characters and last character. A query of
 *   three characters is one posting list; a longer one reads its rarest trigram's list and checks
 *   the candidates; one or two characters read the one key range of grams that start with them
 *   (a text holds them at the start of one of its trigrams or at its end). share_search.ts reads
 *   them.
 * - `{kind}_grams_pending/{id}` → {creator, texts}: a share whose postings are not written yet.
 *   Each posting lands in its own place of the store, so writing a share's 6 to 300 postings in
 *   its create commit made that commit several times dearer (a commit writes one page per
 *   scattered key); a create therefore writes only this one row, next to the rows of the shares
 *   created just before, and share_index_merge.ts turns pending rows into postings in batches in
 *   the background. A search reads the pending rows as well, so it never misses a share.
 * Deletes and edits of texts remove the old postings in their own commit; an edit leaves its new
 * texts pending.
 */
import { keys, type ShareKind } from "../kv/keys.ts";

export type { ShareKind };

/** How many characters of each text search looks at. */
export const INDEXED_CHARS = 128;

/**
 * What the indexes need of a share: its id, its creator, the texts search matches and, for file
 * shares, its size in bytes (counted per creator and over all shares).
 */
export type IndexedShare = { id: string; created_by: string; texts: string[]; bytes?: number };

/** A write of the index without an atomic operation (backups, the migration). */
export type IndexRow = { key: Deno.KvKey; value: string };

/** Folds a text or query for matching: NFC, then lower case. */
export function foldText(s: string): string {
  return s.normalize("NFC").toLowerCase();
}

/** The characters of a text that search sees: folded, the first INDEXED_CHARS code points. */
export function searchedChars(text: string): string[] {
  return [...foldText(text)].slice(0, INDEXED_CHARS);
}

/** True when the folded `query` lies within the searched part of one of the texts. */
export function textsMatch(texts: string[], foldedQuery: string): boolean {
  return texts.some((t) => searchedChars(t).join("").includes(foldedQuery));
}

/** Every distinct gram a share is posted under. */
export function gramsOf(texts: string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    const chars = searchedChars(text);
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i] + chars[i + 1] + chars[i + 2]);
    if (chars.length >= 2) out.add(chars[chars.length - 2] + chars[chars.length - 1]);
    if (chars.length >= 1) out.add(chars[chars.length - 1]);
  }
  return [...out];
}

/** The gram rows of a share (counters are not rows: a recount sets them). */
export function gramRows(kind: ShareKind, share: IndexedShare): IndexRow[] {
  return gramsOf(share.texts).map((g) => ({
    key: keys.shareGrams(kind, g, share.id),
    value: share.created_by,
  }));
}

/** What a pending row holds: the share's creator and texts. */
export type PendingShare = { created_by: string; texts: string[] };

/** Marks a new share pending for the search index and counts it for its creator, in `op`. */
export function addToIndex(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  share: IndexedShare,
): Deno.AtomicOperation {
  const pending: PendingShare = { created_by: share.created_by, texts: share.texts };
  op.set(keys.shareGramsPending(kind, share.id), pending);
  countBytes(op, kind, share, "created");
  return op.sum(keys.shareCreatorTotals(kind, share.created_by, "created"), 1n);
}

/** Removes a deleted share's postings (or pending row) and counts it off its creator, in `op`. */
export function removeFromIndex(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  share: IndexedShare,
): Deno.AtomicOperation {
  for (const row of gramRows(kind, share)) op.delete(row.key);
  op.delete(keys.shareGramsPending(kind, share.id));
  countBytes(op, kind, share, "deleted");
  return op.sum(keys.shareCreatorTotals(kind, share.created_by, "deleted"), 1n);
}

/** Adds a sized share's bytes to its creator's and the overall byte counters, in `op`. */
function countBytes(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  share: IndexedShare,
  field: "created" | "deleted",
): void {
  if (share.bytes === undefined) return;
  const bytes = BigInt(share.bytes);
  const own = field === "created" ? "bytes_created" : "bytes_deleted";
  op.sum(keys.shareCreatorTotals(kind, share.created_by, own), bytes);
  op.sum(keys.shareBytesTotals(kind, field), bytes);
}

/**
 * An edited share (its creator never changes), in `op`: when its texts changed, its old postings
 * go and its new texts wait pending, like a new share's.
 */
export function moveInIndex(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  prev: IndexedShare,
  next: IndexedShare,
): Deno.AtomicOperation {
  if (prev.texts.every((t, i) => t === next.texts[i])) return op;
  for (const row of gramRows(kind, prev)) op.delete(row.key);
  const pending: PendingShare = { created_by: next.created_by, texts: next.texts };
  return op.set(keys.shareGramsPending(kind, next.id), pending);
}

const u64 = (e: Deno.KvEntryMaybe<unknown>) => e.value instanceof Deno.KvU64 ? e.value.value : 0n;

/** The difference of two monotonic counters (never below 0), one read. */
async function readDifference(kv: Deno.Kv, added: Deno.KvKey, removed: Deno.KvKey) {
  const [a, r] = await kv.getMany([added, removed]);
  const diff = u64(a) - u64(r);
  return diff > 0n ? Number(diff) : 0;
}

/** How many shares of `kind` a creator has (never below 0): two counters, one read. */
export function readCreatorTotal(kv: Deno.Kv, kind: ShareKind, createdBy: string) {
  return readDifference(
    kv,
    keys.shareCreatorTotals(kind, createdBy, "created"),
    keys.shareCreatorTotals(kind, createdBy, "deleted"),
  );
}

/** The bytes of a kind's sized shares: one creator's, or everyone's without `createdBy`. */
export function readBytesTotal(kv: Deno.Kv, kind: ShareKind, createdBy?: string) {
  return createdBy === undefined
    ? readDifference(
      kv,
      keys.shareBytesTotals(kind, "created"),
      keys.shareBytesTotals(kind, "deleted"),
    )
    : readDifference(
      kv,
      keys.shareCreatorTotals(kind, createdBy, "bytes_created"),
      keys.shareCreatorTotals(kind, createdBy, "bytes_deleted"),
    );
}
