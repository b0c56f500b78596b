/**
 * The subscribe half of a small store kept in localStorage, for useSyncExternalStore: a
 * listener hears this tab's changes (through `listeners`) and another tab's writes to the same
 * key (through the `storage` event).
 */

/**
 * Adds `listener` to `listeners` and, while subscribed, calls it after another tab wrote `key`
 * and `reload` (which re-reads the store) answered true. Returns the unsubscribe function.
 */
export function subscribeStored(
  listeners: Set<() => void>,
  key: string,
  reload: () => boolean,
  listener: () => void,
): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === key && reload()) listener();
  };
  globalThis.addEventListener?.("storage", onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.("storage", onStorage);
  };
}
