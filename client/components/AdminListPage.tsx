/**
 * The one admin list page (texts, files, keys, mounts, storage): a header with title, intro,
 * Refresh and the page's actions; for paged lists a toolbar with search and batch actions; the
 * load error with Retry; a spinner, the empty state or the list; and the pagination.
 */
import { type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { SEARCH_MIN_LENGTH } from "../../shared/constants.ts";
import { Pagination } from "./Pagination.tsx";
import { RetryAlert } from "./RetryAlert.tsx";
import { Spinner } from "./Spinner.tsx";
import { DeleteConfirmDialog } from "./DeleteConfirmDialog.tsx";
import type { ItemDialogs, PagedList } from "./use_admin_list.ts";
import { PageHeader } from "./PageHeader.tsx";

/** The delete confirmation of a list's items. */
type Deletion<T> = {
  dialogs: ItemDialogs<T>;
  /** The values the confirmation names (`{{name}}`…). */
  vars: (item: T) => Record<string, string>;
  /** Deletes the item and gives the success text. */
  remove: (item: T) => Promise<string>;
  keepOpenOnError?: boolean;
};

/** What the page shows of its list's loading. */
export type ListSource = { loading: boolean; error: string | null; refresh: () => void };

/** A paged list; its search and total texts are `<name>.search`, `.searchPlaceholder`… */
type PagedOptions = {
  list: PagedList<{ id: string }>;
  /** "Delete selected (n)", the first batch action. */
  onDeleteSelected: () => void;
  /** More batch actions, shown before Refresh in the toolbar. */
  batch?: ReactNode;
  /** The total's wording when `<name>.pagination.total` with `{total}` is not enough. */
  totalText?: string;
};

export function AdminListPage<T>(
  {
    name,
    intro,
    source,
    items,
    empty,
    onCreate,
    deletion,
    paged,
    footnote,
    listClassName,
    children,
    dialogs,
  }: {
    /**
     * The page's class prefix and i18n namespace (texts, files, keys, mounts, storage): the
     * title, Refresh, Create and empty texts are `<name>.title`, `.refresh`, `.create`, `.empty`.
     */
    name: string;
    /** The line under the title; `<name>.intro` when absent. */
    intro?: ReactNode;
    /** The list's state, as useLoadedList gives it; a paged list's own when absent. */
    source?: ListSource & { data?: unknown };
    /** Null until the first load; when absent, the source's data or the paged list's page. */
    items?: readonly T[] | null;
    /** The empty state's text, when not `<name>.empty` (`<name>.noMatches` after a search). */
    empty?: string;
    /** Shows a Create button after Refresh. */
    onCreate?: () => void;
    /** Asks before deleting `dialogs.deleting`, with `<name>.delete.*` texts, then reloads. */
    deletion?: Deletion<T>;
    /** A paged list: search, batch actions and pagination. */
    paged?: PagedOptions;
    /** A line under a non-empty list ("3 keys"). */
    footnote?: string;
    /** Wraps the list in a box with this class (busy while reloading); `<name>-list` when paged. */
    listClassName?: string;
    /** The list itself, shown when it has items. */
    children: ReactNode;
    /** The page's dialogs (lazy ones may suspend). */
    dialogs?: ReactNode;
  },
) {
  const { t } = useTranslation();
  const { loading, error, refresh: onRefresh } = source ?? paged!.list;
  const rows = (items !== undefined ? items : source?.data ?? paged?.list.items ?? null) as
    | readonly unknown[]
    | null;
  const box = listClassName ?? (paged && `${name}-list`);
  const refresh = (
    <button type="button" className="btn" onClick={onRefresh} disabled={loading}>
      {t(`${name}.refresh`)}
    </button>
  );
  const list = rows === null
    ? (error ? null : <Spinner />)
    : rows.length === 0
    ? (error ? null : (
      <p className="empty-state">
        {empty ?? t(`${name}.${paged?.list.search ? "noMatches" : "empty"}`)}
      </p>
    ))
    : children;
  return (
    <section className={`page ${name}-page`} aria-labelledby={`${name}-title`}>
      <PageHeader
        title={t(`${name}.title`)}
        titleId={`${name}-title`}
        intro={intro ?? t(`${name}.intro`)}
        actions={!paged && (
          <div className="page-actions">
            {refresh}
            {onCreate && (
              <button type="button" className="btn btn-primary" onClick={onCreate}>
                {t(`${name}.create`)}
              </button>
            )}
          </div>
        )}
      />

      {paged && <SearchToolbar name={name} paged={paged} refresh={refresh} />}

      {error && <RetryAlert message={error} onRetry={onRefresh} />}

      {box && rows !== null ? <div className={box} aria-busy={loading}>{list}</div> : list}
      {footnote && rows !== null && rows.length > 0 && (
        <p className="muted table-footnote">{footnote}</p>
      )}

      {/* Counts and pages only of a list that loaded: never "0 in total" while it loads. */}
      {paged && paged.list.loaded && !error && (
        <Pagination
          pageSizes={paged.list.pageSizes}
          totalText={paged.totalText ??
            t(`${name}.pagination.total`, { total: paged.list.total })}
          page={paged.list.page}
          limit={paged.list.limit}
          total={paged.list.total}
          onPage={paged.list.setPage}
          onLimit={paged.list.setLimit}
        />
      )}
      {deletion && (
        <DeleteConfirmDialog
          name={name}
          target={deletion.dialogs.deleting}
          vars={deletion.vars}
          remove={deletion.remove}
          onClose={deletion.dialogs.close}
          onDeleted={onRefresh}
          keepOpenOnError={deletion.keepOpenOnError}
        />
      )}
      <Suspense fallback={null}>{dialogs}</Suspense>
    </section>
  );
}

function SearchToolbar(
  { name, paged, refresh }: { name: string; paged: PagedOptions; refresh: ReactNode },
) {
  const { t } = useTranslation();
  const { list } = paged;
  const count = list.selectedItems.length;
  const id = `${name}-search`;
  return (
    <div className={`list-toolbar ${name}-toolbar`}>
      <div className={`field ${name}-search`}>
        <label htmlFor={id}>{t(`${name}.search`)}</label>
        <input
          id={id}
          className="input"
          type="search"
          value={list.searchInput}
          placeholder={t(`${name}.searchPlaceholder`)}
          aria-describedby={list.searchTooShort ? `${id}-hint` : undefined}
          onChange={(e) => list.setSearchInput(e.currentTarget.value)}
        />
        {list.searchTooShort && (
          <p id={`${id}-hint`} className="field-hint">
            {t(`${name}.searchTooShort`, { min: SEARCH_MIN_LENGTH })}
          </p>
        )}
      </div>
      <div className={`page-actions ${name}-actions`}>
        <button
          type="button"
          className="btn btn-danger"
          disabled={count === 0}
          onClick={paged.onDeleteSelected}
        >
          {t(`${name}.deleteSelected`, { n: count })}
        </button>
        {paged.batch}
        {refresh}
      </div>
    </div>
  );
}
