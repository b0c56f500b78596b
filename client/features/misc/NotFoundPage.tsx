/** The page-not-found screen (docs/PRODUCT.md §2.1). */
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../app/use_page_title.ts";
import { paths } from "../../../shared/app_paths.ts";

/** The 404 screen with a link home. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.notFound");
  return (
    <section className="card status-page">
      <p className="status-page-code" aria-hidden="true">404</p>
      <h1>{t("notFound.title")}</h1>
      <p className="muted">{t("notFound.body")}</p>
      <div className="status-page-actions">
        <Link to={paths.home} className="btn btn-primary">{t("notFound.home")}</Link>
      </div>
    </section>
  );
}
