/**
 * The name of the storage config Cubby creates on first start. Nobody chose that name, so it is
 * stored empty and shown in the reader's language; a name an admin gives it replaces it for
 * good (a config name cannot be empty otherwise, see `Name` in schemas/storage_configs.ts).
 */
import type { Language } from "./constants.ts";

/** The default local storage's name in each language. */
export const DEFAULT_STORAGE_NAME: Record<Language, string> = {
  "zh-CN": "本地存储",
  "en-US": "Local storage",
};

/** The name to show for a storage config: its own, or the default name in `lang`. */
export function storageConfigName(name: string, lang: Language): string {
  return name === "" ? DEFAULT_STORAGE_NAME[lang] : name;
}

/** A copy of `view` (a storage config or a bucket of the dashboard) with its display name. */
export function withStorageName<T extends { name: string }>(view: T, lang: Language): T {
  return view.name === "" ? { ...view, name: DEFAULT_STORAGE_NAME[lang] } : view;
}
