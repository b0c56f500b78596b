/**
 * The data side of the admin list pages: an unpaged list loaded in one request
 * (useLoadedList), a paged, searchable list with row selection (usePagedList), the row
 * being edited in a dialog (useRowEditor), and the create, edit and delete dialogs of a list's
 * items (useItemDialogs), and one action at a time on a row (useRowAction) or on the page
 * (useBusyAction).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { errorText } from "../api/errors.ts";
import { toast } from "./toast.ts";
import { SEARCH_MIN_LENGTH } from "../../shared/constants.ts";

/** Loads data with `fetch` (a stable callback) on mount and on `load()`. */
export function useLoadedList<T>(fetch: () => Promise<T>) {
  const { t } = useTranslation();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      setData(await fetch());
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setLoading(false);
    }
  }, [fetch, t]);
  useEffect(() => {
    void load();
  }, [load]);
  const refresh = useCallback(() => void load(), [load]);
  return { data, setData, error, loading, load, refresh };
}

/** The rows of a table and which of them are selected. */
export type Selection<T extends { id: string }> = {
  items: T[];
  selected: Set<string>;
  onSelect: (next: Set<string>) => void;
};

/** A positive whole number from a query parameter, else `fallback`. */
function wholeParam(raw: string | null, fallback: number): number {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** One page of a list, as the list endpoints answer. */
export type Page<T> = { items: T[]; total: number };
export type PageQuery = { page: number; limit: number; search: string };

/** A paged list with a debounced search and a selection of rows; `fetch` must be stable. */
export function usePagedList<T extends { id: string }>(
  fetch: (q: PageQuery) => Promise<Page<T>>,
  defaultLimit: number,
  /** The page sizes offered, the default among them. */
  pageSizes: number[],
) {
  const { t } = useTranslation();
  // The page, page size and search live in the URL (?page=3&limit=50&q=…): a reload, a shared
  // link or Back shows the same page.
  const [params, setParams] = useSearchParams();
  // The latest parameters, for setters called from a timer set during an earlier render.
  const paramsRef = useRef(params);
  paramsRef.current = params;
  const page = wholeParam(params.get("page"), 1);
  const limitParam = wholeParam(params.get("limit"), defaultLimit);
  const limit = pageSizes.includes(limitParam) ? limitParam : defaultLimit;
  const search = params.get("q")?.trim() ?? "";
  const setQuery = useCallback((patch: Record<string, string | number | null>) => {
    setParams(() => {
      const next = new URLSearchParams(paramsRef.current);
      for (const [k, v] of Object.entries(patch)) {
        if (v === null || v === "" || (k === "page" && v === 1)) next.delete(k);
        else next.set(k, String(v));
      }
      return next;
    }, { replace: true });
  }, [setParams]);
  const setPage = useCallback((p: number) => setQuery({ page: p }), [setQuery]);
  const setSearch = useCallback((q: string) => setQuery({ q, page: null }), [setQuery]);
  const [searchInput, setSearchInput] = useState(search);
  // The URL's search wins when it changes from outside (a reload, Back, a link).
  useEffect(() => setSearchInput((typed) => typed.trim() === search ? typed : search), [search]);
  const [list, setList] = useState<Page<T> | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  // Search after a pause, and only with enough characters (docs/PRODUCT.md §5.4).
  const trimmed = searchInput.trim();
  const searchTooShort = trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH;
  useEffect(() => {
    if (searchTooShort || trimmed === search) return;
    const timer = setTimeout(() => setSearch(trimmed), 300);
    return () => clearTimeout(timer);
  }, [trimmed, searchTooShort, search, setSearch]);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    fetch({ page, limit, search })
      .then((data) => {
        if (!alive) return;
        const pages = Math.max(1, Math.ceil(data.total / limit));
        if (data.items.length === 0 && page > pages) {
          setPage(pages);
          return;
        }
        setList(data);
        setError(null);
        setSelected((sel) => new Set(data.items.filter((i) => sel.has(i.id)).map((i) => i.id)));
      })
      .catch((err) => alive && setError(errorText(t, err)))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [fetch, page, limit, search, reload, t, setPage]);

  const refresh = useCallback(() => setReload((n) => n + 1), []);
  const setLimit = useCallback(
    (l: number) => setQuery({ limit: l === defaultLimit ? null : l, page: null }),
    [setQuery, defaultLimit],
  );
  const items = list?.items ?? null;
  return {
    page,
    setPage,
    pageSizes,
    limit,
    setLimit,
    total: list?.total ?? 0,
    /** The page as loaded (null before the first answer), for what only a loaded list shows. */
    loaded: list,
    searchInput,
    setSearchInput,
    search,
    searchTooShort,
    items,
    setSelected,
    /** The rows of this page and which are selected, for the table. */
    selection: { items: items ?? [], selected, onSelect: setSelected } as Selection<T>,
    selectedItems: (items ?? []).filter((i) => selected.has(i.id)),
    loading,
    error,
    refresh,
  };
}

/** What usePagedList returns. */
export type PagedList<T extends { id: string }> = ReturnType<typeof usePagedList<T>>;

/** The row open in an edit dialog; saving closes it, says `savedText` and reloads the list. */
export function useRowEditor<T>(savedText: string, reload: () => void) {
  const [editing, setEditing] = useState<T | null>(null);
  const close = useCallback(() => setEditing(null), []);
  const saved = () => {
    setEditing(null);
    toast.success(savedText);
    reload();
  };
  return { editing, open: setEditing, close, saved };
}

type ItemDialog<T> =
  | { kind: "none" }
  | { kind: "create" }
  | { kind: "edit"; item: T }
  | { kind: "delete"; item: T };

/** Which item dialog a list page shows: the create or edit form, or the delete confirmation. */
export function useItemDialogs<T>() {
  const [state, setState] = useState<ItemDialog<T>>({ kind: "none" });
  return {
    /** The form is open: to create an item, or to edit `editing`. */
    formOpen: state.kind === "create" || state.kind === "edit",
    creating: state.kind === "create",
    editing: state.kind === "edit" ? state.item : null,
    deleting: state.kind === "delete" ? state.item : null,
    create: () => setState({ kind: "create" }),
    edit: (item: T) => setState({ kind: "edit", item }),
    confirmDelete: (item: T) => setState({ kind: "delete", item }),
    close: () => setState({ kind: "none" }),
  };
}

/** What useItemDialogs returns. */
export type ItemDialogs<T> = ReturnType<typeof useItemDialogs<T>>;

/** One action at a time on a row: `busyId` names the row while it runs; the outcome is toasted. */
export function useRowAction() {
  const { t } = useTranslation();
  const [busyId, setBusyId] = useState<string | null>(null);
  /** Runs `action`, which gives the success text; on failure `undo` runs and the error shows. */
  const run = async (id: string, action: () => Promise<string>, undo?: () => void) => {
    setBusyId(id);
    try {
      toast.success(await action());
    } catch (err) {
      undo?.();
      toast.error(errorText(t, err));
    } finally {
      setBusyId(null);
    }
  };
  return { busyId, run };
}

/** One action at a time on the page (a clear, a batch delete, a task's cancel): busy meanwhile. */
export function useBusyAction() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  /** Runs `action`; a failure shows as a toast; `done` runs after either. */
  const run = async (action: () => Promise<void>, done?: () => void) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
      done?.();
    }
  };
  return { busy, run };
}
