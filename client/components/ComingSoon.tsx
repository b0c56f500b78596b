/** A clear "coming soon" page for screens a later version delivers. */
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../app/use_page_title.ts";

export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  usePageTitle(titleKey);
  return (
    <section className="card coming-soon">
      <h1>{t(titleKey)}</h1>
      <p>
        <strong>{t("common.comingSoon")}</strong>
      </p>
      <p>{t("common.comingSoonBody")}</p>
    </section>
  );
}
