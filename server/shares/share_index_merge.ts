/**
 * Turns pending shares into search postings (share_index.ts), in the background, so that a
 * create writes one row instead of one per gram. A batch is one commit of at most 10 shares,
 * checked against each pending row as it was read (KV Connect takes 10 checks): a share edited or
 * deleted meanwhile changed or removed its row, so the commit fails and the batch is read again.
 * Several instances may merge at once; the checks let one of them win each batch. Searches read
 * pending rows too, so how soon a merge runs changes what a search costs, never what it finds.
 */
import { keys } from "../kv/keys.ts";
import { gramRows, type PendingShare, type ShareKind } from "./share_index.ts";

/** Shares per commit at most: one check each. */
const BATCH_SHARES = 10;
/** Postings per commit at most (KV takes 1000 mutations); a share has at most a few hundred. */
const BATCH_ROWS = 800;
/** How often every instance merges what is pending. */
export const MERGE_INTERVAL_MS = 2_000;
/** Failed batch commits in a row before giving up until the next run. */
const MAX_CONFLICTS = 20;

const KINDS: ShareKind[] = ["paste", "file"];

/**
 * Writes the postings of up to `max` pending shares of `kind`, oldest first; returns how many.
 * `stopped` is asked before each batch: a stopping instance leaves the rest to the others.
 */
export async function mergePending(
  kv: Deno.Kv,
  kind: ShareKind,
  max = Infinity,
  stopped: () => boolean = () => false,
): Promise<number> {
  let merged = 0;
  let conflicts = 0;
  while (merged < max && !stopped()) {
    const listed = kv.list<PendingShare>({ prefix: keys.shareGramsPendingPrefix(kind) }, {
      limit: Math.min(BATCH_SHARES, max - merged),
    });
    const op = kv.atomic();
    let shares = 0;
    let rows = 0;
    for await (const e of listed) {
      const own = gramRows(kind, { id: e.key[1] as string, ...e.value });
      if (shares > 0 && rows + own.length > BATCH_ROWS) break;
      op.check(e).delete(e.key);
      for (const row of own) op.set(row.key, row.value);
      shares++;
      rows += own.length;
    }
    if (shares === 0) break;
    if ((await op.commit()).ok) {
      merged += shares;
      conflicts = 0;
    } else if (++conflicts >= MAX_CONFLICTS) {
      throw new Error(`Pending ${kind} shares keep changing under the search index merge`);
    }
  }
  return merged;
}

/** Merges everything pending of every kind (until `stopped`); returns how many shares. */
export async function mergeAllPending(
  kv: Deno.Kv,
  stopped: () => boolean = () => false,
): Promise<number> {
  let merged = 0;
  for (const kind of KINDS) merged += await mergePending(kv, kind, Infinity, stopped);
  return merged;
}

/**
 * Merges pending shares every MERGE_INTERVAL_MS on this instance until `stop()`, which lets the
 * batch under way commit and waits for it (call it before the KV closes); a long backlog is left
 * to the other instances or the next start, so a shutdown never waits for it. `settled()` waits
 * for the merge under way, if any.
 */
export function startIndexMerger(kv: Deno.Kv, log: (msg: string) => void) {
  let running: Promise<void> | null = null;
  let stopped = false;
  // A timer callback: every failure is caught here, or it would end the process.
  const run = () => {
    running ??= mergeAllPending(kv, () => stopped)
      .then(() => {}, (err) => log(`Search index merge failed: ${err}`))
      .finally(() => running = null);
  };
  const timer = setInterval(run, MERGE_INTERVAL_MS);
  run();
  return {
    async settled(): Promise<void> {
      await running;
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
