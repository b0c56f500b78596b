/** A clear "coming soon" page for screens a later version delivers. */
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../app/use_page_title.ts";
import { paths } from "../../shared/app_paths.ts";

/** A titled placeholder page for a screen that is not built yet. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  usePageTitle(titleKey);
  return (
    <section className="card coming-soon">
      <h1>{t(titleKey)}</h1>
      <p>
        <strong>{t("common.comingSoon")}</strong>
      </p>
      <p className="muted">{t("common.comingSoonBody")}</p>
      <p>
        <Link to={paths.home}>{t("notFound.home")}</Link>
      </p>
    </section>
  );
}
