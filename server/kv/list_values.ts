/** Reads of many values out of KV: whole small collections, and many keys at once. */

/** Every value under `prefix`, in key order (oldest first for ULID keys). */
export function listValues<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  return Array.fromAsync(kv.list<T>({ prefix }), (e) => e.value);
}

/**
 * The entries at `keys`, in the same order (missing ones with a null value): 10 keys per read,
 * KV's limit, and up to ten reads at once, so a list page of 100 waits for one round of reads.
 */
export async function getManyEntries<T>(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const out: Deno.KvEntryMaybe<T>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    const batches: Deno.KvKey[][] = [];
    for (let j = i; j < Math.min(i + 100, keys.length); j += 10) {
      batches.push(keys.slice(j, Math.min(j + 10, i + 100)));
    }
    const read = await Promise.all(batches.map((b) => kv.getMany<T[]>(b)));
    out.push(...read.flat());
  }
  return out;
}
