/** Reads whole small collections out of KV. */

/** Every value under `prefix`, in key order (oldest first for ULID keys). */
export function listValues<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  return Array.fromAsync(kv.list<T>({ prefix }), (e) => e.value);
}
