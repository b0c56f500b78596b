/**
 * Every locale file, per language and by file name. Each feature owns one pair of JSON files
 * (locales/zh-CN/<name>.json and locales/en-US/<name>.json); the top-level keys of one file
 * must not appear in any other file, and the two languages must match key for key
 * (catalogues_test.ts checks both, and that every file on disk is registered here).
 *
 * To add a feature's files: import each language in catalogue_zh_cn.ts and catalogue_en_us.ts
 * under the same name.
 */
import type { Language } from "../../shared/constants.ts";
import { files as zhFiles } from "./catalogue_zh_cn.ts";
import { files as enFiles } from "./catalogue_en_us.ts";

type Catalogue = Record<string, unknown>;

/** Locale files by language, then by file name (without `.json`). */
export const catalogueFiles: Record<Language, Record<string, Catalogue>> = {
  "zh-CN": zhFiles,
  "en-US": enFiles,
};

/** Every locale file of a language, in registration order (merged by i18n/mod.ts). */
export const catalogues: Record<Language, Catalogue[]> = {
  "zh-CN": Object.values(catalogueFiles["zh-CN"]),
  "en-US": Object.values(catalogueFiles["en-US"]),
};
