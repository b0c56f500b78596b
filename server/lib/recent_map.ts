/** Maps bounded by count, where insertion order is recency (the oldest entry is first). */

/** Sets `key` as the most recent entry of `map`, then drops the oldest beyond `max` entries. */
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
