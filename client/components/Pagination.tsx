/** Previous / next page, the position and the page size of a list; used by every admin list. */
import { useTranslation } from "react-i18next";

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
        <span aria-live="polite">{t("common.pagination.position", { page, pages })}</span>
        <button
          type="button"
          className="btn btn-small"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t("common.pagination.next")}
        </button>
      </div>
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
