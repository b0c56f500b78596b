/**
 * Search (docs/PRODUCT.md §2.3, §5.4: at least 2 characters): a form with the scope (all mounts,
 * this mount, this folder), and the results page by page, each linking to its folder or preview.
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { errorText } from "../../api/errors.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { DEFAULT_SEARCH_LIMIT, SEARCH_MIN_LENGTH } from "../../../shared/constants.ts";
import { type FsEntry, searchEntries, type SearchScope } from "./explorer_api.ts";
import { explorerHref, nameOf, parentOf } from "./explorer_paths.ts";
import { KindIcon, useEntryKind } from "./EntryIcon.tsx";
import { formatBytes } from "../../lib/format.ts";
import { recordSearch, useSearchHistory } from "../../offline/search_history.ts";

export type SearchQuery = { q: string; scope: SearchScope };

export function SearchForm(
  { inMount, onSearch }: { inMount: boolean; onSearch: (q: SearchQuery) => void },
) {
  const { t } = useTranslation();
  const id = useId();
  const [q, setQ] = useState("");
  const [scope, setScope] = useState<SearchScope>("global");
  const [error, setError] = useState(false);
  const history = useSearchHistory();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (q.trim().length < SEARCH_MIN_LENGTH) {
      setError(true);
      return;
    }
    setError(false);
    void recordSearch(q.trim());
    onSearch({ q: q.trim(), scope: inMount ? scope : "global" });
  };
  return (
    <form className="explorer-search" role="search" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-q`} className="sr-only">{t("explorer.search.label")}</label>
      <input
        id={`${id}-q`}
        className="input"
        type="search"
        value={q}
        placeholder={t("explorer.search.placeholder")}
        aria-invalid={error || undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          if (error && e.currentTarget.value.trim().length >= SEARCH_MIN_LENGTH) setError(false);
        }}
      />
      {inMount && (
        <select
          className="input explorer-search-scope"
          aria-label={t("explorer.search.scope")}
          value={scope}
          onChange={(e) => setScope(e.currentTarget.value as SearchScope)}
        >
          {(["global", "mount", "directory"] as const).map((s) => (
            <option key={s} value={s}>{t(`explorer.search.scopes.${s}`)}</option>
          ))}
        </select>
      )}
      <button type="submit" className="btn">{t("common.search")}</button>
      {q === "" && history.queries.length > 0 && (
        <div
          className="explorer-search-history"
          role="group"
          aria-label={t("offlineData.search.history")}
        >
          <span className="muted">{t("offlineData.search.history")}:</span>
          {history.queries.slice(0, 5).map((query) => (
            <button
              key={query}
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => {
                setQ(query);
                void recordSearch(query);
                onSearch({ q: query, scope: inMount ? scope : "global" });
              }}
            >
              {query}
            </button>
          ))}
          <button type="button" className="btn btn-ghost btn-small" onClick={history.clear}>
            {t("offlineData.search.clearHistory")}
          </button>
        </div>
      )}
      {error && (
        <p id={`${id}-err`} className="field-error explorer-search-error" role="alert">
          {t("explorer.search.tooShort", { min: SEARCH_MIN_LENGTH })}
        </p>
      )}
    </form>
  );
}

function ResultRow({ entry }: { entry: FsEntry }) {
  const kind = useEntryKind(entry);
  const href = entry.type === "directory"
    ? explorerHref(entry.path)
    : explorerHref(parentOf(entry.path), nameOf(entry.path));
  return (
    <li className="search-result">
      <Link to={href} className="entry-link">
        <KindIcon kind={kind} size={20} />
        <span className="entry-name">{entry.name}</span>
      </Link>
      <span className="muted search-result-path">{parentOf(entry.path)}</span>
      {entry.type === "file" && <span className="muted">{formatBytes(entry.size)}</span>}
    </li>
  );
}

/** The results of one query (give it a `key` per query: it starts from the first page). */
export function SearchResults(
  { query, path, mountId, onClose }: {
    query: SearchQuery;
    path: string;
    mountId: string | null;
    onClose: () => void;
  },
) {
  const { t } = useTranslation();
  const [items, setItems] = useState<FsEntry[]>([]);
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    setError(null);
    searchEntries(query.q, {
      scope: query.scope,
      mountId: mountId ?? undefined,
      path,
      offset,
      limit: DEFAULT_SEARCH_LIMIT,
      signal: ctrl.signal,
    }).then(
      (r) => {
        setItems((list) => (offset === 0 ? r.items : [...list, ...r.items]));
        setTotal(r.total);
        setLoading(false);
      },
      (err) => {
        if (ctrl.signal.aborted) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => ctrl.abort();
  }, [query, path, mountId, offset]);

  return (
    <section className="explorer-search-results" aria-label={t("explorer.search.results")}>
      <header className="explorer-search-head">
        <h2 className="explorer-panel-title" aria-live="polite">
          {loading && offset === 0
            ? t("explorer.search.searching", { q: query.q })
            : t("explorer.search.found", { q: query.q, total })}
        </h2>
        <button type="button" className="btn btn-small" onClick={onClose}>
          {t("explorer.search.close")}
        </button>
      </header>
      {error !== null && <p className="alert alert-error" role="alert">{errorText(t, error)}</p>}
      {!loading && error === null && items.length === 0 && (
        <p className="empty-state">{t("explorer.search.none")}</p>
      )}
      {items.length > 0 && (
        <ul className="search-result-list">
          {items.map((e) => <ResultRow key={e.path} entry={e} />)}
        </ul>
      )}
      {loading && <Spinner />}
      {!loading && items.length < total && (
        <button
          type="button"
          className="btn"
          onClick={() => setOffset(items.length)}
        >
          {t("explorer.loadMore")}
        </button>
      )}
    </section>
  );
}
