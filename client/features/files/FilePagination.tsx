/** Previous / next page, the position and the page size of the file list. */
import { useTranslation } from "react-i18next";

const PAGE_SIZES = [20, 50, 100, 200];

export function FilePagination(
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
    <nav className="files-pagination" aria-label={t("files.pagination.label")}>
      <span className="muted">{t("files.pagination.total", { total })}</span>
      <div className="files-pagination-pages">
        <button
          type="button"
          className="btn btn-small"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          {t("files.pagination.previous")}
        </button>
        <span aria-live="polite">{t("files.pagination.position", { page, pages })}</span>
        <button
          type="button"
          className="btn btn-small"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t("files.pagination.next")}
        </button>
      </div>
      <label className="files-page-size">
        <span>{t("files.pagination.pageSize")}</span>
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
