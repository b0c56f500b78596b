/**
 * The list indexes of pastes and files, written in the same atomic commits as their records, so
 * that a list page reads what its items cost and never every record:
 * - `{kind}_creator_totals/{creator}/{created|deleted}`: how many shares each creator has, for a
 *   key user's list total. KV sums only add to a u64, so a total is two monotonic counters, read
 *   as their difference (as the dashboard's are; the admin's total is the dashboard's counter).
 * - `{kind}_grams/{gram}/{id}` → creator: the search postings. A share is posted under every
 *   distinct trigram of its folded texts (slug, remark, a file's name; the first INDEXED_CHARS
 *   characters of each), and under each text's last two characters and last character. A query of
 *   three characters is one posting list; a longer one reads its rarest trigram's list and checks
 *   the candidates; one or two characters read the one key range of grams that start with them
 *   (a text holds them at the start of one of its trigrams or at its end). share_search.ts reads
 *   them.
 * A share with no remark and a 6-character slug is 6 rows; INDEXED_CHARS bounds the rows of one
 * share to a few hundred, well inside one commit (1000 mutations, 80 KiB of keys).
 */
import { keys, type ShareKind } from "../kv/keys.ts";

export type { ShareKind };

/** How many characters of each text search looks at. */
export const INDEXED_CHARS = 128;

/** What the indexes need of a share: its id, its creator and the texts search matches. */
export type IndexedShare = { id: string; created_by: string; texts: string[] };

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

/** Adds a new share's postings and its creator's count to `op`. */
export function addToIndex(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  share: IndexedShare,
): Deno.AtomicOperation {
  for (const row of gramRows(kind, share)) op.set(row.key, row.value);
  return op.sum(keys.shareCreatorTotals(kind, share.created_by, "created"), 1n);
}

/** Removes a deleted share's postings and counts it off its creator, in `op`. */
export function removeFromIndex(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  share: IndexedShare,
): Deno.AtomicOperation {
  for (const row of gramRows(kind, share)) op.delete(row.key);
  return op.sum(keys.shareCreatorTotals(kind, share.created_by, "deleted"), 1n);
}

/** Moves the postings of an edited share (its texts changed; its creator never does), in `op`. */
export function moveInIndex(
  op: Deno.AtomicOperation,
  kind: ShareKind,
  prev: IndexedShare,
  next: IndexedShare,
): Deno.AtomicOperation {
  const before = new Set(gramsOf(prev.texts));
  const after = new Set(gramsOf(next.texts));
  for (const g of before) if (!after.has(g)) op.delete(keys.shareGrams(kind, g, prev.id));
  for (const g of after) {
    if (!before.has(g)) op.set(keys.shareGrams(kind, g, next.id), next.created_by);
  }
  return op;
}

const u64 = (e: Deno.KvEntryMaybe<unknown>) => e.value instanceof Deno.KvU64 ? e.value.value : 0n;

/** How many shares of `kind` a creator has (never below 0): two counters, one read. */
export async function readCreatorTotal(
  kv: Deno.Kv,
  kind: ShareKind,
  createdBy: string,
): Promise<number> {
  const [created, deleted] = await kv.getMany([
    keys.shareCreatorTotals(kind, createdBy, "created"),
    keys.shareCreatorTotals(kind, createdBy, "deleted"),
  ]);
  const diff = u64(created) - u64(deleted);
  return diff > 0n ? Number(diff) : 0;
}
