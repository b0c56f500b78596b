/**
 * Where a language's locale module records its files when it is evaluated. The server document
 * loads the page language's module as a script of its own before the entry (server/ssr/
 * document.ts), so the entry finds the texts here synchronously and hydrates before the
 * page's load event, as it did when every text was in the entry.
 */
import type { Language } from "../../shared/constants.ts";

const registered = new Map<Language, Record<string, unknown>>();

/** Records the locale files of a language (called by catalogue_<lang>.ts). */
export function registerCatalogue(lang: Language, files: Record<string, unknown>): void {
  registered.set(lang, files);
}

/** The locale files of a language if its module has been evaluated, else undefined. */
export function registeredCatalogue(lang: Language): Record<string, unknown> | undefined {
  return registered.get(lang);
}
