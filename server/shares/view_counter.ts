/**
 * Exact view limits under concurrency (docs/PRODUCT.md §12.3), shared by pastes and files. A view
 * is delivered only if a checked commit moves the counter while it is below the limit and while the
 * share's record is unchanged; so N concurrent callers of an N-view share all succeed and every
 * later caller is refused. Unlimited shares just add one.
 */
import { getManyEntries } from "../kv/list_values.ts";

/** A counted view; `views` is null when the share was read without them (FoundShare). */
export type CountResult =
  | { ok: true; views: number | null }
  | { ok: false; reason: "used_up" | "changed" };

/** Attempts before giving up under extreme contention. */
const MAX_COUNT_ATTEMPTS = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Counts one view on `counterKey` for the record read at `record`. "changed" means the record
 * was edited or deleted meanwhile: read it again.
 */
export async function countView(
  kv: Deno.Kv,
  counterKey: Deno.KvKey,
  record: { key: Deno.KvKey; versionstamp: string },
  maxViews: number,
): Promise<CountResult> {
  for (let attempt = 0; attempt < MAX_COUNT_ATTEMPTS; attempt++) {
    const counter = await kv.get<Deno.KvU64>(counterKey);
    const views = Number(counter.value?.value ?? 0n);
    if (maxViews > 0 && views >= maxViews) return { ok: false, reason: "used_up" };
    const op = kv.atomic().check(record);
    if (maxViews > 0) op.check(counter).set(counterKey, new Deno.KvU64(BigInt(views + 1)));
    else op.sum(counterKey, 1n);
    if ((await op.commit()).ok) return { ok: true, views: views + 1 };
    const current = await kv.get(record.key);
    if (current.versionstamp !== record.versionstamp) return { ok: false, reason: "changed" };
    await sleep(Math.random() * Math.min(20, 1 + attempt));
  }
  throw new Error(`Cannot count a view on ${String(counterKey)}: too much contention`);
}

/** The view counts of many counters (missing counters count 0), read as getManyEntries reads. */
export async function readViewCounts(kv: Deno.Kv, counterKeys: Deno.KvKey[]): Promise<number[]> {
  const read = await getManyEntries<Deno.KvU64>(kv, counterKeys);
  return read.map((e) => Number(e.value?.value ?? 0n));
}
