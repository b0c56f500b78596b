/**
 * The language picker (docs/PRODUCT.md §1): zh-CN or en-US. The choice is stored in localStorage
 * `language` and in a `language` cookie, because the server renders pages (and API messages)
 * in the cookie's language. The rendered value comes from i18next, which the browser entry
 * initialises from <html lang> — the language the server rendered with — so hydration matches.
 * The other language's texts are loaded when it is first chosen (i18n/browser.ts).
 */
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import type { i18n as I18n } from "i18next";
import { type Language, LANGUAGES } from "../../shared/constants.ts";
import { toLanguage } from "../i18n/setup.ts";
import { ensureLanguage } from "../i18n/browser.ts";
import { LineIcon } from "./LineIcon.tsx";

export const LANGUAGE_STORAGE_KEY = "language";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Stores the language in localStorage and the cookie the server reads. */
function persistLanguage(lang: Language) {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch { /* storage unavailable */ }
  document.cookie = `language=${lang}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
}

/** Switches the UI language: i18next, <html lang>, localStorage and cookie. */
export async function switchLanguage(i18n: I18n, lang: Language): Promise<void> {
  persistLanguage(lang);
  document.documentElement.lang = lang;
  if (i18n.language !== lang) {
    await ensureLanguage(i18n, lang);
    await i18n.changeLanguage(lang);
  }
}

/**
 * After hydration: a language stored in localStorage wins over the one the page was rendered
 * in (e.g. the cookie was cleared), and refreshes the cookie. Call once, from the layout.
 */
export function useStoredLanguage() {
  const { i18n } = useTranslation();
  useEffect(() => {
    let stored: string | null = null;
    try {
      stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
    } catch { /* storage unavailable */ }
    if (stored === "zh-CN" || stored === "en-US") void switchLanguage(i18n, stored);
  }, [i18n]);
}

function GlobeIcon() {
  return (
    <LineIcon size={18}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </LineIcon>
  );
}

/** A labelled <select> of the supported languages. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  return (
    <div className="language-switcher">
      <label htmlFor={id} className="language-switcher-label">
        <GlobeIcon />
        <span className="sr-only">{t("nav.language")}</span>
      </label>
      <select
        id={id}
        className="language-switcher-select"
        value={current}
        onChange={(e) => void switchLanguage(i18n, toLanguage(e.target.value))}
      >
        {LANGUAGES.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {t(`shell.language.${lang}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
