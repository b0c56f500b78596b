/**
 * One folder's listing, page by page through the server's cursor, so a folder of any size
 * lists completely (docs/PRODUCT.md §14.2: never cut off). Changing the path aborts the previous
 * request. Local patches keep the view current after an upload, rename or delete without a reload.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { type FsEntry, listFolder } from "./explorer_api.ts";
import { parentOf } from "./explorer_paths.ts";
import { isNetworkFailure } from "../../offline/share_copies.ts";
import { keepDirectoryCopy, readDirectoryCopy } from "../../offline/directory_copies.ts";

/** What the offline store keeps of a listing (its first page). */
type KeptListing = { items: FsEntry[]; is_virtual: boolean; mount_id: string | null };

export type FolderState = {
  path: string;
  items: FsEntry[];
  cursor: string | null;
  isVirtual: boolean;
  mountId: string | null;
  status: "loading" | "ready" | "failed";
  loadingMore: boolean;
  error: unknown;
  /** Set when the listing is the offline copy because the network failed. */
  offlineSavedAt: number | null;
};

const initial = (path: string): FolderState => ({
  path,
  items: [],
  cursor: null,
  isVirtual: false,
  mountId: null,
  status: "loading",
  loadingMore: false,
  error: null,
  offlineSavedAt: null,
});

/** Appends a page, dropping names already present (a page boundary can repeat one). */
function merge(items: FsEntry[], page: FsEntry[]): FsEntry[] {
  const seen = new Set(items.map((i) => i.path));
  return [...items, ...page.filter((i) => !seen.has(i.path))];
}

export function useFolder(path: string) {
  const [state, setState] = useState<FolderState>(() => initial(path));
  const abort = useRef<AbortController | null>(null);
  const pathRef = useRef(path);
  pathRef.current = path;
  const stateRef = useRef(state);
  stateRef.current = state;

  const load = useCallback(async (refresh = false) => {
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    const target = pathRef.current;
    setState((s) => (s.path === target && refresh ? { ...s, status: "loading" } : initial(target)));
    try {
      const page = await listFolder(target, { refresh, signal: ctrl.signal });
      if (ctrl.signal.aborted) return;
      setState({
        path: target,
        items: page.items,
        cursor: page.cursor,
        isVirtual: page.is_virtual,
        mountId: page.mount_id ?? null,
        status: "ready",
        loadingMore: false,
        error: null,
        offlineSavedAt: null,
      });
      void keepDirectoryCopy(
        target,
        {
          items: page.items,
          is_virtual: page.is_virtual,
          mount_id: page.mount_id ?? null,
        } satisfies KeptListing,
      );
    } catch (err) {
      if (ctrl.signal.aborted || (err instanceof ApiError && err.code === "request_aborted")) {
        return;
      }
      const copy = isNetworkFailure(err) ? await readDirectoryCopy<KeptListing>(target) : null;
      if (ctrl.signal.aborted) return;
      if (copy) {
        setState({
          ...initial(target),
          items: copy.data.items,
          isVirtual: copy.data.is_virtual,
          mountId: copy.data.mount_id,
          status: "ready",
          offlineSavedAt: copy.savedAt,
        });
        return;
      }
      setState((s) => ({ ...s, status: "failed", error: err }));
    }
  }, []);

  useEffect(() => {
    void load();
    return () => abort.current?.abort();
  }, [path, load]);

  const loadMore = useCallback(async () => {
    const s = stateRef.current;
    if (!s.cursor || s.loadingMore || s.status !== "ready") return;
    setState((x) => ({ ...x, loadingMore: true }));
    const ctrl = abort.current ?? new AbortController();
    try {
      const page = await listFolder(s.path, { cursor: s.cursor, signal: ctrl.signal });
      if (ctrl.signal.aborted) return;
      setState((x) =>
        x.path === s.path
          ? { ...x, items: merge(x.items, page.items), cursor: page.cursor, loadingMore: false }
          : x
      );
    } catch (err) {
      if (ctrl.signal.aborted) return;
      setState((x) => ({ ...x, loadingMore: false, error: err }));
    }
  }, []);

  /** Adds or replaces entries of this folder (after an upload or mkdir). */
  const upsert = useCallback((entries: FsEntry[]) => {
    setState((s) => {
      const mine = entries.filter((e) => parentOf(e.path) === s.path);
      if (!mine.length) return s;
      const byPath = new Map(mine.map((e) => [e.path, e]));
      const kept = s.items.map((i) => byPath.get(i.path) ?? i);
      const added = mine.filter((e) => !s.items.some((i) => i.path === e.path));
      return { ...s, items: [...kept, ...added] };
    });
  }, []);

  /** Drops entries (after a delete or a rename away). */
  const drop = useCallback((paths: string[]) => {
    const gone = new Set(paths);
    setState((s) => ({ ...s, items: s.items.filter((i) => !gone.has(i.path)) }));
  }, []);

  return { ...state, reload: load, loadMore, upsert, drop };
}
