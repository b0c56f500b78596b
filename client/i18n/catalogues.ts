/** Every locale file, per language. Add a feature's pair of files here. */
import type { Language } from "../../shared/constants.ts";
import zhCommon from "./locales/zh-CN/common.json" with { type: "json" };
import enCommon from "./locales/en-US/common.json" with { type: "json" };

export const catalogues: Record<Language, Record<string, unknown>[]> = {
  "zh-CN": [zhCommon],
  "en-US": [enCommon],
};
