/**
 * Exact view limits under concurrency (product.md §3): a view is delivered only if a checked
 * atomic increment of the counter commits while the count is still below the limit.
 */

export type ViewResult = { ok: true; views: number } | { ok: false; views: number };

/**
 * Counts one view at `key`. With maxViews > 0, refuses once the count reached it. Retries
 * optimistic conflicts with a small random back-off, so N concurrent callers of an N-view share
 * all succeed and every later caller is refused.
 */
export async function consumeView(
  kv: Deno.Kv,
  key: Deno.KvKey,
  maxViews: number,
): Promise<ViewResult> {
  for (let attempt = 0;; attempt++) {
    const entry = await kv.get<number>(key);
    const views = entry.value ?? 0;
    if (maxViews > 0 && views >= maxViews) return { ok: false, views };
    const res = await kv.atomic().check(entry).set(key, views + 1).commit();
    if (res.ok) return { ok: true, views: views + 1 };
    if (attempt > 5) {
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 2)));
    }
  }
}

/** Reads the current count. */
export async function readViews(kv: Deno.Kv, key: Deno.KvKey): Promise<number> {
  return (await kv.get<number>(key)).value ?? 0;
}
