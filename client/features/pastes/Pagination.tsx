/** Previous / next page, the position, and the page size of the share list. */
import { useTranslation } from "react-i18next";

const PAGE_SIZES = [10, 20, 50, 100];

export function Pagination(
  { page, limit, total, onPage, onLimit }: {
    page: number;
    limit: number;
    total: number;
    onPage: (page: number) => void;
    onLimit: (limit: number) => void;
  },
) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className="texts-pagination" aria-label={t("texts.pagination.label")}>
      <span className="muted">{t("texts.pagination.total", { total })}</span>
      <div className="texts-pagination-pages">
        <button
          type="button"
          className="btn btn-small"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          {t("texts.pagination.previous")}
        </button>
        <span aria-live="polite">{t("texts.pagination.position", { page, pages })}</span>
        <button
          type="button"
          className="btn btn-small"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t("texts.pagination.next")}
        </button>
      </div>
      <label className="texts-page-size">
        <span>{t("texts.pagination.pageSize")}</span>
        <select
          className="input"
          value={limit}
          onChange={(e) => onLimit(Number(e.currentTarget.value))}
        >
          {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
    </nav>
  );
}
