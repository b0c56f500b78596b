/**
 * The position in a paged admin list: its total, Previous and Next, the page numbers around the
 * current one (with the first and the last; gaps as "…"), a box to jump to any page, and the
 * page size. Used by every paged list; the page lives in the URL (usePagedList).
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";

/** The page numbers to offer: the first, the last and two either side of `page`, with gaps. */
export function pageWindow(page: number, pages: number): (number | "gap")[] {
  const wanted = new Set([1, pages]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pages) wanted.add(p);
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev === 2) out.push(prev + 1);
    else if (prev !== undefined && p - prev > 2) out.push("gap");
    out.push(p);
  });
  return out;
}

export function Pagination(
  { page, limit, total, pageSizes, totalText, onPage, onLimit }: {
    page: number;
    limit: number;
    total: number;
    /** The page sizes offered (the list's default among them). */
    pageSizes: number[];
    /** "12 in total", "12 files"…: the list's own wording of the total. */
    totalText: string;
    onPage: (page: number) => void;
    onLimit: (limit: number) => void;
  },
) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  const [jump, setJump] = useState("");
  const go = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jump);
    if (!Number.isInteger(n)) return;
    onPage(Math.min(pages, Math.max(1, n)));
    setJump("");
  };
  return (
    <nav className="pagination" aria-label={t("common.pagination.label")}>
      <span className="muted">{totalText}</span>
      <div className="pagination-pages">
        <button
          type="button"
          className="btn btn-small"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          {t("common.pagination.previous")}
        </button>
        <ol className="pagination-numbers">
          {pageWindow(page, pages).map((p, i) =>
            p === "gap"
              ? <li key={`gap-${i}`} className="muted" aria-hidden="true">…</li>
              : (
                <li key={p}>
                  <button
                    type="button"
                    className={`btn btn-small${p === page ? " btn-primary" : " btn-ghost"}`}
                    aria-current={p === page ? "page" : undefined}
                    aria-label={t("common.pagination.page", { page: p })}
                    onClick={() => p !== page && onPage(p)}
                  >
                    {p}
                  </button>
                </li>
              )
          )}
        </ol>
        <span className="sr-only" aria-live="polite">
          {t("common.pagination.position", { page, pages })}
        </span>
        <button
          type="button"
          className="btn btn-small"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t("common.pagination.next")}
        </button>
      </div>
      {pages > 1 && (
        <form className="pagination-jump" onSubmit={go}>
          <label>
            <span>{t("common.pagination.goTo")}</span>
            <input
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={pages}
              step={1}
              value={jump}
              onChange={(e) => setJump(e.currentTarget.value)}
            />
          </label>
          <button type="submit" className="btn btn-small">{t("common.pagination.go")}</button>
        </form>
      )}
      <label className="pagination-size">
        <span>{t("common.pagination.pageSize")}</span>
        <select
          className="input"
          value={limit}
          onChange={(e) => onLimit(Number(e.currentTarget.value))}
        >
          {pageSizes.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
    </nav>
  );
}
