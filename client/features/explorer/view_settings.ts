/**
 * How the explorer shows a folder: the view (list, grid, gallery) and the gallery settings of
 * docs/PRODUCT.md §2.3 (columns, horizontal and vertical spacing, images only, sort by name, size,
 * date or type). Both persist in localStorage; reading them happens after hydration
 * (useStoredValue).
 */
import { useCallback, useEffect, useState } from "react";
import type { FsEntry } from "./explorer_api.ts";

export const VIEW_MODES = ["list", "grid", "gallery"] as const;
export type ViewMode = typeof VIEW_MODES[number];
export const SORT_KEYS = ["name", "size", "date", "type"] as const;
export type SortKey = typeof SORT_KEYS[number];

export type GallerySettings = {
  columns: number;
  /** Pixels between columns. */
  gapX: number;
  /** Pixels between rows. */
  gapY: number;
  imagesOnly: boolean;
  sortBy: SortKey;
  sortDesc: boolean;
};

export const COLUMNS_MIN = 1;
export const COLUMNS_MAX = 10;
export const GAP_MAX = 48;
export const DEFAULT_GALLERY: GallerySettings = {
  columns: 4,
  gapX: 8,
  gapY: 8,
  imagesOnly: false,
  sortBy: "name",
  sortDesc: false,
};

export const VIEW_KEY = "cubby.explorer.view";
export const GALLERY_KEY = "cubby.explorer.gallery";

const clampInt = (v: unknown, min: number, max: number, fallback: number) =>
  typeof v === "number" && Number.isFinite(v)
    ? Math.min(max, Math.max(min, Math.round(v)))
    : fallback;

/** Stored gallery settings, with anything missing or out of range replaced by the default. */
export function parseGallery(raw: string | null): GallerySettings {
  let v: Partial<Record<keyof GallerySettings, unknown>> = {};
  try {
    v = raw ? JSON.parse(raw) ?? {} : {};
  } catch {
    v = {};
  }
  const d = DEFAULT_GALLERY;
  return {
    columns: clampInt(v.columns, COLUMNS_MIN, COLUMNS_MAX, d.columns),
    gapX: clampInt(v.gapX, 0, GAP_MAX, d.gapX),
    gapY: clampInt(v.gapY, 0, GAP_MAX, d.gapY),
    imagesOnly: typeof v.imagesOnly === "boolean" ? v.imagesOnly : d.imagesOnly,
    sortBy: (SORT_KEYS as readonly unknown[]).includes(v.sortBy) ? v.sortBy as SortKey : d.sortBy,
    sortDesc: typeof v.sortDesc === "boolean" ? v.sortDesc : d.sortDesc,
  };
}

/** A stored view mode, or "list". */
export function parseView(raw: string | null): ViewMode {
  return (VIEW_MODES as readonly (string | null)[]).includes(raw) ? raw as ViewMode : "list";
}

function extension(name: string): string {
  const i = name.lastIndexOf(".");
  return i > 0 ? name.slice(i + 1).toLowerCase() : "";
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Entries sorted by `sortBy` (folders always first, names break ties). */
export function sortEntries(items: FsEntry[], sortBy: SortKey, desc: boolean): FsEntry[] {
  const dir = desc ? -1 : 1;
  const byName = (a: FsEntry, b: FsEntry) => collator.compare(a.name, b.name);
  const key = (a: FsEntry, b: FsEntry): number => {
    switch (sortBy) {
      case "size":
        return a.size - b.size;
      case "date":
        return (Date.parse(a.modified ?? "") || 0) - (Date.parse(b.modified ?? "") || 0);
      case "type":
        return collator.compare(extension(a.name), extension(b.name));
      default:
        return 0;
    }
  };
  return [...items].sort((a, b) => {
    if (a.type !== b.type) return a.type === "directory" ? -1 : 1;
    return (key(a, b) || byName(a, b)) * dir;
  });
}

/**
 * A value kept in localStorage under `key`: the default while rendering (hydration-safe), the
 * stored value right after mount, and written back on every change.
 */
export function useStoredValue<T>(
  key: string,
  parse: (raw: string | null) => T,
  serialize: (v: T) => string = JSON.stringify,
): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => parse(null));
  useEffect(() => {
    try {
      setValue(parse(globalThis.localStorage?.getItem(key) ?? null));
    } catch { /* storage unavailable */ }
    // `parse` is a module-level function: reading once per key is enough.
  }, [key]);
  const update = useCallback((next: T) => {
    setValue(next);
    try {
      globalThis.localStorage?.setItem(key, serialize(next));
    } catch { /* storage unavailable */ }
  }, [key, serialize]);
  return [value, update];
}
