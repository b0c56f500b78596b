/**
 * The texts of the share pages: the top-level keys of the app's translation resource that a
 * share page shows (its layout, the paste and file views, previews, the installable-app cards
 * and the offline notes), plus the error texts of one language. Each language is a module of
 * its own (texts_<lang>.ts), which the document loads before the share entry (as the app's
 * client/i18n/registry.ts does), so hydration starts with them at hand.
 *
 * share_texts_test.ts checks that every literal key the share entry's modules pass to `t` is
 * kept here.
 */
import type { Language } from "../../shared/constants.ts";

/** Keys of the translation resource that share pages use: top-level, or a dotted path. */
export const SHARE_TEXT_KEYS = [
  // common.json: buttons, navigation, page titles and descriptions, not-found and offline
  // pages, footer
  "common",
  "nav",
  "pageTitle",
  "pageDescription",
  "notFound",
  "offline",
  "footer",
  // shell.json: skip link, menu, language and theme controls
  "shell",
  // pastes.json, files.json: the two share views and the file previews
  "paste",
  "file",
  "preview",
  // pastes.json: the editor of the owner's edit dialog (PasteEditDialog)
  "home.editor",
  // settings.json: the announcement banner and the environment switcher only
  "settings.announcement",
  "settings.envSwitcher",
  // pwa.json, offline.json: install and update cards, offline badge, offline copies, queue
  "pwa",
  "offlineData",
  // e2e.json: end-to-end encrypted share pages
  "e2e",
  // shared/errors.ts, one language
  "errors",
] as const;

type Resource = Record<string, unknown>;

/** The share pages' part of a language's translation resource; throws if a key is missing. */
export function pickShareTexts(resource: Resource): Resource {
  const picked: Resource = {};
  for (const key of SHARE_TEXT_KEYS) {
    const parts = key.split(".");
    let from: unknown = resource;
    let to = picked;
    parts.forEach((part, i) => {
      from = (from as Resource | undefined)?.[part];
      if (from === undefined) throw new Error(`share texts: the catalogue has no "${key}" key`);
      if (i === parts.length - 1) to[part] = from;
      else to = (to[part] ??= {}) as Resource;
    });
  }
  return picked;
}

const registered = new Map<Language, Resource>();

/** Records the share texts of a language (called by texts_<lang>.ts when it is evaluated). */
export function registerShareTexts(lang: Language, texts: Resource): void {
  registered.set(lang, texts);
}

/** The share texts of a language if its module has been evaluated, else undefined. */
export function registeredShareTexts(lang: Language): Resource | undefined {
  return registered.get(lang);
}
