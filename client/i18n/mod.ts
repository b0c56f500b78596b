/**
 * i18next set-up with every language's locale files, for server rendering and tests. Each
 * feature owns one JSON file per language under locales/<lang>/; their top-level keys must not
 * overlap. The browser loads only the language it shows (browser.ts).
 */
import type { i18n } from "i18next";
import { type Language, LANGUAGES } from "../../shared/constants.ts";
import { catalogues } from "./catalogues.ts";
import { initI18n, mergeResource } from "./setup.ts";

export { toLanguage } from "./setup.ts";

/** Builds the translation resource of one language. */
export function resourceFor(lang: Language): Record<string, unknown> {
  return mergeResource(lang, catalogues[lang]);
}

/** Creates an initialised i18next instance (synchronous: resources are bundled). */
export function createI18n(lang: Language): i18n {
  return initI18n(lang, Object.fromEntries(LANGUAGES.map((l) => [l, resourceFor(l)])));
}
