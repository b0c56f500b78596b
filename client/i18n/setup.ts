/**
 * The i18next instance and resources, without the locale files themselves: the server passes
 * every language (mod.ts), the browser only the ones it has loaded (browser.ts). Error texts
 * come from shared/errors.ts under the `errors.` prefix.
 */
import i18next, { type i18n } from "i18next";
import { errorCatalogueFor } from "../../shared/errors.ts";
import { FALLBACK_LANGUAGE, type Language, LANGUAGES } from "../../shared/constants.ts";

/** Merges one language's locale files and its error texts into one translation resource. */
export function mergeResource(
  lang: Language,
  parts: Record<string, unknown>[],
): Record<string, unknown> {
  const merged: Record<string, unknown> = { errors: errorCatalogueFor(lang) };
  for (const part of parts) Object.assign(merged, part);
  return merged;
}

/** Creates an initialised i18next instance from the resources given (synchronous). */
export function initI18n(
  lang: Language,
  resources: Partial<Record<Language, Record<string, unknown>>>,
): i18n {
  const instance = i18next.createInstance();
  instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources: Object.fromEntries(
      Object.entries(resources).map(([l, r]) => [l, { translation: r }]),
    ),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** Narrows any string to a supported language, falling back to zh-CN. */
export function toLanguage(value: string | null | undefined): Language {
  return value === "en-US" || value === "zh-CN" ? value : FALLBACK_LANGUAGE;
}
