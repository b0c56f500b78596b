/**
 * The file basket (docs/PRODUCT.md §2.3): files and folders gathered from any folder for one pack
 * download. A small external store kept in localStorage, so it survives navigation and reloads; the
 * server render and the first client render see it empty (hydration-safe).
 */
import { useSyncExternalStore } from "react";
import { subscribeStored } from "../../lib/storage_sync.ts";

export type BasketItem = {
  path: string;
  name: string;
  type: "file" | "directory";
  /** Bytes for files; folders are measured when the pack is prepared. */
  size: number;
};

export const BASKET_KEY = "cubby.explorer.basket";
/** The basket holds at most this many entries (folders count once). */
export const BASKET_MAX = 5000;

let items: BasketItem[] | null = null;
const listeners = new Set<() => void>();
const EMPTY: BasketItem[] = [];

function current(): BasketItem[] {
  if (items === null) {
    try {
      const raw = JSON.parse(globalThis.localStorage?.getItem(BASKET_KEY) ?? "[]");
      items = Array.isArray(raw) ? raw.filter(isItem) : [];
    } catch {
      items = [];
    }
  }
  return items;
}

function isItem(v: unknown): v is BasketItem {
  const i = v as BasketItem;
  return typeof i?.path === "string" && typeof i.name === "string" &&
    (i.type === "file" || i.type === "directory") && typeof i.size === "number";
}

function save(next: BasketItem[]) {
  items = next;
  try {
    globalThis.localStorage?.setItem(BASKET_KEY, JSON.stringify(next));
  } catch { /* storage full or unavailable: the basket still works for this page */ }
  listeners.forEach((l) => l());
}

/**
 * Adds entries not already covered (an entry inside a folder that is in the basket is
 * skipped; a folder added replaces the entries inside it). Returns how many were added.
 */
export function addToBasket(entries: BasketItem[]): number {
  let list = [...current()];
  let added = 0;
  for (const e of entries) {
    const covered = list.some((i) =>
      i.path === e.path || (i.type === "directory" && e.path.startsWith(i.path + "/"))
    );
    if (covered || list.length >= BASKET_MAX) continue;
    if (e.type === "directory") list = list.filter((i) => !i.path.startsWith(e.path + "/"));
    list.push({ path: e.path, name: e.name, type: e.type, size: e.size });
    added++;
  }
  if (added) save(list);
  return added;
}

/** Removes one entry. */
export function removeFromBasket(path: string): void {
  save(current().filter((i) => i.path !== path));
}

/** Empties the basket. */
export function clearBasket(): void {
  save([]);
}

/** The basket now (outside React). */
export function basketItems(): BasketItem[] {
  return current();
}

function subscribe(l: () => void) {
  return subscribeStored(listeners, BASKET_KEY, () => {
    items = null;
    return true;
  }, l);
}

/** React hook: the basket, re-rendering on change (also across tabs). */
export function useBasket(): BasketItem[] {
  return useSyncExternalStore(subscribe, current, () => EMPTY);
}
