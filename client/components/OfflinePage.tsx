/**
 * The offline fallback page (docs/PRODUCT.md §2.1): "page temporarily unavailable" with back to
 * home, back to the previous page, and retry. It is server rendered, so it reads nothing from the
 * browser while rendering.
 */
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../app/use_page_title.ts";
import { paths } from "../../shared/app_paths.ts";
import { LineIcon } from "./LineIcon.tsx";

/**
 * The offline screen: home, previous page, retry. `onRetry` replaces the reload (a page whose
 * chunk could not load tries that load again).
 */
export function OfflinePage({ onRetry }: { onRetry?: () => void } = {}) {
  const { t } = useTranslation();
  usePageTitle("pageTitle.offline");
  return (
    <section className="card status-page">
      <LineIcon size={56} strokeWidth={1.5} className="status-page-icon">
        <path d="M2 8.8a15 15 0 0 1 20 0M5 12.5a10 10 0 0 1 14 0M8.5 16.1a5 5 0 0 1 7 0M12 20h.01M3 3l18 18" />
      </LineIcon>
      <h1>{t("offline.title")}</h1>
      <p className="muted">{t("offline.body")}</p>
      <div className="status-page-actions">
        <Link to={paths.home} className="btn btn-primary">{t("offline.home")}</Link>
        <button type="button" className="btn" onClick={() => globalThis.history.back()}>
          {t("offline.previous")}
        </button>
        <button
          type="button"
          className="btn"
          onClick={onRetry ?? (() => globalThis.location.reload())}
        >
          {t("offline.retry")}
        </button>
      </div>
    </section>
  );
}
