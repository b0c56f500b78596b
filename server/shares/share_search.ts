/**
 * Searching pastes or files (a case-insensitive substring of a slug, remark or file name) over
 * the postings of share_index.ts, newest first. What a search reads grows with its matches, not
 * with the shares stored, and it is bounded:
 * - at most MAX_MATCHES matches are counted and listed, the newest ones, so the total a list
 *   shows for a search stops there;
 * - at most MAX_ROWS postings are read. A one- or two-character query reads the key range of the
 *   grams that start with it, which is not in time order: past MAX_ROWS postings the newest
 *   matches among those read are listed. A longer query reads its trigram lists newest first.
 * - a query of four or more characters has its candidates (the postings of its rarest trigram)
 *   checked against their records, at most MAX_CHECKED of them;
 * - a key user's search reads the same postings and keeps its own, so past MAX_ROWS postings of
 *   other creators it can miss its own older matches;
 * - every search also reads all pending rows (shares written since the last merge), which the
 *   merger keeps to a few seconds' worth.
 */
import { keys, type ShareKind } from "../kv/keys.ts";
import { foldText, INDEXED_CHARS, type PendingShare, textsMatch } from "./share_index.ts";

/** Matches counted and listed at most, newest first. */
export const MAX_MATCHES = 1000;
/** Postings read at most by one search. */
export const MAX_ROWS = 10_000;
/** Candidates checked against their records at most by one search. */
export const MAX_CHECKED = 2000;
/** Trigrams of a long query whose posting lists are raced to find the rarest. */
const RACED_GRAMS = 6;
const RACE_STEP = 256;
/** KV reads at most 10 keys per getMany; a few run side by side. */
const READ_BATCH = 10;
const PARALLEL_READS = 4;

/** Where and how to search: the kind, the caller's scope and how to read and match records. */
export type SearchScope<R> = {
  kind: ShareKind;
  /** A key user's own shares only; undefined for all (the admin). */
  createdBy?: string;
  /** Records by id (at most 10), missing ones left out, in any order. */
  read: (ids: string[]) => Promise<R[]>;
  idOf: (rec: R) => string;
  textsOf: (rec: R) => string[];
  /** A further condition on matches; every candidate's record is then read. */
  filter?: (rec: R) => boolean;
};

/** Matching ids, newest first, and the records read on the way (by id). */
export type SearchResult<R> = { ids: string[]; read: Map<string, R> };

type Candidates = { ids: string[]; exact: boolean };

/** The shares in scope that match `query`, newest first (see the bounds above). */
export async function searchShares<R>(
  kv: Deno.Kv,
  query: string,
  scope: SearchScope<R>,
): Promise<SearchResult<R>> {
  const q = foldText(query);
  const length = [...q].length;
  if (length === 0 || length > INDEXED_CHARS) return { ids: [], read: new Map() };
  const [posted, pending] = await Promise.all([
    postedMatches(kv, q, length, scope),
    pendingMatches(kv, q, scope),
  ]);
  if (pending.length === 0) return posted;
  if (scope.filter) {
    for (const batch of chunks(pending, READ_BATCH)) {
      for (const rec of await scope.read(batch)) posted.read.set(scope.idOf(rec), rec);
    }
  }
  const kept = pending.filter((id) => {
    const rec = posted.read.get(id);
    return !scope.filter || (rec !== undefined && scope.filter(rec));
  });
  const ids = [...new Set([...posted.ids, ...kept])].sort((a, b) => a < b ? 1 : a > b ? -1 : 0);
  return { ids: ids.slice(0, MAX_MATCHES), read: posted.read };
}

/** Matches among the postings (the merged shares). */
async function postedMatches<R>(
  kv: Deno.Kv,
  q: string,
  length: number,
  scope: SearchScope<R>,
): Promise<SearchResult<R>> {
  const found = length <= 2
    ? await rangeCandidates(kv, q, scope)
    : await gramCandidates(kv, q, length === 3 && !scope.filter, scope);
  if (found.exact && !scope.filter) {
    return { ids: found.ids.slice(0, MAX_MATCHES), read: new Map() };
  }
  return await checkCandidates(found.ids, q, scope);
}

/**
 * Matches among the shares still pending (written since the last merge, share_index_merge.ts):
 * their rows hold creator and texts, so they are checked without reading records.
 */
async function pendingMatches<R>(kv: Deno.Kv, q: string, scope: SearchScope<R>) {
  const ids: string[] = [];
  const iter = kv.list<PendingShare>({ prefix: keys.shareGramsPendingPrefix(scope.kind) }, {
    batchSize: 500,
  });
  for await (const e of iter) {
    if (scope.createdBy !== undefined && e.value.created_by !== scope.createdBy) continue;
    if (textsMatch(e.value.texts, q)) ids.push(e.key[1] as string);
  }
  return ids;
}

const chunks = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** Postings rows of one selector, newest first when `reverse`, as ids in the caller's scope. */
async function* postings(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  scope: Pick<SearchScope<unknown>, "createdBy">,
  opts: { reverse: boolean; limit?: number },
): AsyncGenerator<string | null> {
  const iter = kv.list<string>(selector, { ...opts, batchSize: Math.min(opts.limit ?? 500, 500) });
  for await (const e of iter) {
    // null: a row of another creator (it still counts as read).
    yield scope.createdBy === undefined || e.value === scope.createdBy ? e.key[2] as string : null;
  }
}

/** One or two characters: every gram that starts with them, one key range (exact). */
async function rangeCandidates<R>(kv: Deno.Kv, q: string, scope: SearchScope<R>) {
  const prefix = keys.shareGramsPrefix(scope.kind);
  const selector = { start: [...prefix, q], end: [...prefix, `${q}\u{10FFFF}`] };
  const seen = new Set<string>();
  const rows = postings(kv, selector, scope, { reverse: false, limit: MAX_ROWS });
  for await (const id of rows) if (id !== null) seen.add(id);
  const ids = [...seen].sort((a, b) => a < b ? 1 : a > b ? -1 : 0);
  return { ids, exact: true } satisfies Candidates;
}

/**
 * Three or more characters: the postings of the query's rarest trigram, found by reading up to
 * RACED_GRAMS lists in lockstep until the first one ends (newest first). A three-character
 * query is one list and exact: `stopEarly` ends it at MAX_MATCHES.
 */
async function gramCandidates<R>(
  kv: Deno.Kv,
  q: string,
  stopEarly: boolean,
  scope: SearchScope<R>,
): Promise<Candidates> {
  const chars = [...q];
  const all = [...new Set(chars.slice(2).map((_, i) => chars.slice(i, i + 3).join("")))];
  const grams = all.length <= RACED_GRAMS ? all : Array.from(
    { length: RACED_GRAMS },
    (_, i) => all[Math.round(i * (all.length - 1) / (RACED_GRAMS - 1))],
  );
  const perList = Math.floor(MAX_ROWS / grams.length);
  const iterators = grams.map((g) =>
    postings(kv, { prefix: keys.shareGramsPrefix(scope.kind, g) }, scope, { reverse: true })
  );
  const lists = grams.map(() => [] as string[]);
  let rows = 0;
  try {
    while (rows < perList) {
      const ended = await Promise.all(iterators.map(async (it, i) => {
        for (let n = 0; n < RACE_STEP; n++) {
          const next = await it.next();
          if (next.done) return true;
          if (next.value !== null) lists[i].push(next.value);
        }
        return false;
      }));
      rows += RACE_STEP;
      const first = ended.indexOf(true);
      if (first >= 0) return { ids: lists[first], exact: chars.length === 3 };
      if (stopEarly && lists[0].length >= MAX_MATCHES) break;
    }
  } finally {
    await Promise.all(iterators.map((it) => it.return(undefined)));
  }
  // No list ended within the bound: the newest part of the shortest one.
  const shortest = lists.reduce((a, b) => b.length < a.length ? b : a);
  return { ids: shortest, exact: chars.length === 3 };
}

/** Reads candidates' records, newest first, and keeps those that match (see the bounds above). */
async function checkCandidates<R>(
  candidates: string[],
  q: string,
  scope: SearchScope<R>,
): Promise<SearchResult<R>> {
  const ids: string[] = [];
  const read = new Map<string, R>();
  const checked = candidates.slice(0, MAX_CHECKED);
  const step = READ_BATCH * PARALLEL_READS;
  for (let i = 0; i < checked.length && ids.length < MAX_MATCHES; i += step) {
    const chunk = checked.slice(i, i + step);
    const batches: string[][] = [];
    for (let j = 0; j < chunk.length; j += READ_BATCH) batches.push(chunk.slice(j, j + READ_BATCH));
    for (const recs of await Promise.all(batches.map((b) => scope.read(b)))) {
      for (const rec of recs) read.set(scope.idOf(rec), rec);
    }
    for (const id of chunk) {
      const rec = read.get(id);
      if (!rec || !textsMatch(scope.textsOf(rec), q)) continue;
      if (scope.filter && !scope.filter(rec)) continue;
      ids.push(id);
      if (ids.length === MAX_MATCHES) break;
    }
  }
  return { ids, read };
}
