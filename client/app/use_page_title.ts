/** Sets document.title to the page subtitle plus the site title. */
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useInitialData } from "./initial_data.tsx";
import { formatPageTitle } from "../routes.ts";

export function usePageTitle(subtitleKey: string) {
  const { t, i18n } = useTranslation();
  const { siteTitle } = useInitialData();
  useEffect(() => {
    document.title = formatPageTitle(t(subtitleKey), siteTitle);
  }, [subtitleKey, siteTitle, i18n.language, t]);
}
