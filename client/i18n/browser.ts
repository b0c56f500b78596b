/**
 * The browser's i18next: each language's locale files are a chunk of their own, imported when
 * the language is first shown, so a page loads one language's texts instead of every one. The
 * server document loads the page language's chunk before the entry (registry.ts).
 */
import type { i18n } from "i18next";
import type { Language } from "../../shared/constants.ts";
import { initI18n, mergeResource } from "./setup.ts";
import { registeredCatalogue } from "./registry.ts";

const loaders: Record<Language, () => Promise<{ files: Record<string, unknown> }>> = {
  "zh-CN": () => import("./catalogue_zh_cn.ts"),
  "en-US": () => import("./catalogue_en_us.ts"),
};

/** A language's translation resource from its locale files. */
function resourceOf(lang: Language, files: Record<string, unknown>): Record<string, unknown> {
  return mergeResource(lang, Object.values(files) as Record<string, unknown>[]);
}

/** One language's translation resource, loaded on demand. */
async function loadResource(lang: Language): Promise<Record<string, unknown>> {
  return resourceOf(lang, registeredCatalogue(lang) ?? (await loaders[lang]()).files);
}

/**
 * The page's i18next instance with the texts of `lang`, synchronously when the document
 * loaded that language's module before the entry (server/ssr/document.ts), else null.
 */
export function registeredI18n(lang: Language): i18n | null {
  const files = registeredCatalogue(lang);
  return files ? initI18n(lang, { [lang]: resourceOf(lang, files) }) : null;
}

/** Creates the page's i18next instance with the texts of `lang` loaded. */
export async function loadI18n(lang: Language): Promise<i18n> {
  return registeredI18n(lang) ?? initI18n(lang, { [lang]: await loadResource(lang) });
}

/** Loads the texts of `lang` into `instance` if they are not there yet. */
export async function ensureLanguage(instance: i18n, lang: Language): Promise<void> {
  if (instance.hasResourceBundle(lang, "translation")) return;
  instance.addResourceBundle(lang, "translation", await loadResource(lang), true, true);
}
