/** A tiny external store for React's useSyncExternalStore: get, set (merge) and subscribe. */
import { useSyncExternalStore } from "react";

/** Creates a store holding one state object. */
export function createStore<T extends object>(initial: T) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch: Partial<T>) {
      state = { ...state, ...patch };
      listeners.forEach((l) => l());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** React hook: the current state of a store; the server render sees the initial state. */
export function useStore<T extends object>(store: ReturnType<typeof createStore<T>>, initial: T) {
  return useSyncExternalStore(store.subscribe, store.get, () => initial);
}
