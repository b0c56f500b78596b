/**
 * The share pages' stand-in for client/i18n/browser.ts: the share entry's build resolves that
 * module to this one (scripts/build.ts), so the language switcher and the entry get the share
 * texts (texts.ts) instead of every locale file. Same exports, same behaviour: the page
 * language's texts were loaded by the document before the entry, the other language's load
 * when it is chosen.
 */
import type { i18n } from "i18next";
import type { Language } from "../../shared/constants.ts";
import { initI18n } from "../i18n/setup.ts";
import { registeredShareTexts } from "./texts.ts";

const loaders: Record<Language, () => Promise<unknown>> = {
  "zh-CN": () => import("./texts_zh_cn.ts"),
  "en-US": () => import("./texts_en_us.ts"),
};

/** The share texts of `lang`, importing its module if needed; throws if it registered none. */
async function loadTexts(lang: Language): Promise<Record<string, unknown>> {
  if (!registeredShareTexts(lang)) await loaders[lang]();
  const texts = registeredShareTexts(lang);
  if (!texts) throw new Error(`share texts: the ${lang} module registered no texts`);
  return texts;
}

/** The page's i18next instance, synchronously when the document loaded the texts, else null. */
export function registeredI18n(lang: Language): i18n | null {
  const texts = registeredShareTexts(lang);
  return texts ? initI18n(lang, { [lang]: texts }) : null;
}

/** Creates the page's i18next instance with the texts of `lang` loaded. */
export async function loadI18n(lang: Language): Promise<i18n> {
  return registeredI18n(lang) ?? initI18n(lang, { [lang]: await loadTexts(lang) });
}

/** Loads the texts of `lang` into `instance` if they are not there yet. */
export async function ensureLanguage(instance: i18n, lang: Language): Promise<void> {
  if (instance.hasResourceBundle(lang, "translation")) return;
  instance.addResourceBundle(lang, "translation", await loadTexts(lang), true, true);
}
