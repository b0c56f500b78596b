/**
 * The explorer's search history (table `searchHistory`): the latest queries, newest first,
 * each once, shown as suggestions in the search box and clearable.
 */
import { useCallback, useEffect, useState } from "react";
import { liveQuery } from "dexie";
import { db } from "./db.ts";

/** At most this many queries are kept. */
export const SEARCH_HISTORY_MAX = 20;

/** Records a query (moving it to the front when it was there already). Never throws. */
export async function recordSearch(query: string): Promise<void> {
  const q = query.trim();
  if (!q) return;
  try {
    await db.transaction("rw", db.searchHistory, async () => {
      await db.searchHistory.where("query").equals(q).delete();
      await db.searchHistory.add({ query: q, timestamp: Date.now() });
      const all = await db.searchHistory.orderBy("timestamp").reverse().primaryKeys();
      if (all.length > SEARCH_HISTORY_MAX) {
        await db.searchHistory.bulkDelete(all.slice(SEARCH_HISTORY_MAX));
      }
    });
  } catch { /* no IndexedDB: no history */ }
}

/** React hook: the recent queries, newest first, and a function that clears them. */
export function useSearchHistory(): { queries: string[]; clear: () => void } {
  const [queries, setQueries] = useState<string[]>([]);
  useEffect(() => {
    const sub = liveQuery(() => db.searchHistory.orderBy("timestamp").reverse().toArray())
      .subscribe({
        next: (rows) => setQueries(rows.map((r) => r.query)),
        error: () => setQueries([]),
      });
    return () => sub.unsubscribe();
  }, []);
  const clear = useCallback(() => {
    db.searchHistory.clear().catch(() => {});
  }, []);
  return { queries, clear };
}
