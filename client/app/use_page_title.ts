/**
 * Sets document.title to the page subtitle plus the site title, and, after an in-app navigation,
 * the meta description to the route's own (`pageDescription.*`). The document's first screen
 * keeps the description the server wrote (a share page's is a summary of the share).
 */
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useInitialData } from "./initial_data.tsx";
import { formatPageTitle, pageDescriptionKey } from "../../shared/app_paths.ts";

/** The path the server rendered this document for, until the app navigates away from it. */
let documentPath: string | null = globalThis.location?.pathname ?? null;

/** Puts `text` in the document's meta description (and its og: copy). */
function setDescription(text: string) {
  for (const [attr, name] of [["name", "description"], ["property", "og:description"]]) {
    let meta = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${name}"]`);
    if (!meta) {
      meta = document.createElement("meta");
      meta.setAttribute(attr, name);
      document.head.append(meta);
    }
    meta.content = text;
  }
}

export function usePageTitle(subtitleKey: string) {
  const { t, i18n } = useTranslation();
  const { siteTitle } = useInitialData();
  useEffect(() => {
    document.title = formatPageTitle(t(subtitleKey), siteTitle);
    const path = globalThis.location.pathname;
    if (path === documentPath) return;
    documentPath = null;
    setDescription(t(pageDescriptionKey(path)));
  }, [subtitleKey, siteTitle, i18n.language, t]);
}
