/**
 * i18next set-up shared by the browser and server rendering. Each feature owns one JSON file
 * per language under locales/<lang>/; their top-level keys must not overlap. Error texts come
 * from shared/errors.ts under the `errors.` prefix.
 */
import i18next, { type i18n } from "i18next";
import { errorCatalogueFor } from "../../shared/errors.ts";
import { FALLBACK_LANGUAGE, type Language, LANGUAGES } from "../../shared/constants.ts";
import { catalogues } from "./catalogues.ts";

/** Builds the translation resource of one language. */
export function resourceFor(lang: Language): Record<string, unknown> {
  const merged: Record<string, unknown> = { errors: errorCatalogueFor(lang) };
  for (const part of catalogues[lang]) Object.assign(merged, part);
  return merged;
}

/** Creates an initialised i18next instance (synchronous: resources are bundled). */
export function createI18n(lang: Language): i18n {
  const instance = i18next.createInstance();
  instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources: Object.fromEntries(
      LANGUAGES.map((l) => [l, { translation: resourceFor(l) }]),
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
