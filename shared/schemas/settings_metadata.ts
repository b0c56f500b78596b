/**
 * The settings metadata table (docs/PRODUCT.md §3.7): every setting's group, type, default and
 * limits, and the CloudPaste names a save may use. Groups: 1 global, 2 preview, 3 WebDAV,
 * 4 site. The checks (settings.ts) and the site config (site_config.ts) are built on it.
 */
import { APP_NAME } from "../constants.ts";
import {
  DEFAULT_PREVIEW_EXTENSIONS,
  PREVIEW_LIST_TYPES,
  type PreviewListType,
} from "../preview_types.ts";

/** The settings groups, by number (docs/PRODUCT.md §3.7: the site group is 4). */
export const SETTING_GROUPS = [
  { id: 1, name: "global" },
  { id: 2, name: "preview" },
  { id: 3, name: "webdav" },
  { id: 4, name: "site" },
] as const;
export type SettingGroupId = typeof SETTING_GROUPS[number]["id"];
export type SettingGroupName = typeof SETTING_GROUPS[number]["name"];
/** The one group readable without auth (through GET /api/public/site-config). */
export const SITE_GROUP: SettingGroupId = 4;

export type SettingType =
  | "integer"
  | "boolean"
  | "enum"
  | "string"
  | "url"
  | "link"
  | "markdown"
  | "html"
  | "extensions"
  | "datetime";
export type SettingValue = string | number | boolean;

/** One row of the metadata table, as GET /api/admin/settings/metadata returns it. */
export type SettingMeta = {
  key: string;
  group: SettingGroupId;
  type: SettingType;
  default: SettingValue;
  /** enum: the allowed values. */
  options?: readonly string[];
  /** integer: the inclusive range. */
  min?: number;
  max?: number;
  /** Text types: the longest value in characters. */
  max_length?: number;
  /** integer: the unit shown beside the input ("seconds"). */
  unit?: string;
  /** System values are kept by the server: read-only, listed only with includeSystem. */
  system?: boolean;
  /** i18n keys of the label and the hint (client catalogue `settings.fields.<key>`). */
  label_key: string;
  description_key: string;
};

/** The largest text value: a KV value holds 64 KiB, and a UTF-16 character may take 2 bytes. */
export const BIG_TEXT = 30_000;
const EXTENSIONS_MAX = 4_000;

function meta(
  key: string,
  group: SettingGroupId,
  type: SettingType,
  def: SettingValue,
  extra: Partial<SettingMeta> = {},
): SettingMeta {
  return {
    key,
    group,
    type,
    default: def,
    ...extra,
    label_key: `settings.fields.${key}.label`,
    description_key: `settings.fields.${key}.hint`,
  };
}

/** The setting that holds the extension list of a preview type. */
export const previewKey = (type: PreviewListType): string => `preview_${type}_types`;

/** Every setting, in display order. */
export const SETTINGS_METADATA: readonly SettingMeta[] = [
  meta("max_upload_size", 1, "integer", 100, { min: 1, max: 1_048_576 }),
  meta("max_upload_size_unit", 1, "enum", "MB", { options: ["KB", "MB", "GB"] }),
  meta("default_use_proxy", 1, "boolean", true),
  meta("file_overwrite_mode", 1, "enum", "overwrite", { options: ["overwrite", "rename"] }),
  meta("proxy_sign_all", 1, "boolean", true),
  meta("proxy_sign_expires", 1, "integer", 0, { min: 0, max: 31_536_000, unit: "seconds" }),
  ...PREVIEW_LIST_TYPES.map((type) =>
    meta(previewKey(type), 2, "extensions", DEFAULT_PREVIEW_EXTENSIONS[type].join(", "), {
      max_length: EXTENSIONS_MAX,
    })
  ),
  meta("webdav_upload_mode", 3, "enum", "direct", { options: ["direct", "multipart"] }),
  meta("site_title", 4, "string", APP_NAME, { max_length: 100 }),
  meta("site_favicon_url", 4, "url", "", { max_length: BIG_TEXT }),
  meta("site_footer_markdown", 4, "markdown", "", { max_length: BIG_TEXT }),
  meta("site_announcement_enabled", 4, "boolean", false),
  meta("site_announcement_content", 4, "markdown", "", { max_length: BIG_TEXT }),
  meta("site_custom_head", 4, "html", "", { max_length: BIG_TEXT }),
  meta("site_custom_body", 4, "html", "", { max_length: BIG_TEXT }),
  meta("site_source_url", 4, "link", "", { max_length: 2000 }),
  meta("site_updated_at", 4, "datetime", "", { system: true }),
];

const BY_KEY = new Map(SETTINGS_METADATA.map((m) => [m.key, m]));

/**
 * CloudPaste's setting names that differ from Cubby's, with their value mapping. A save may
 * use either name; the value is stored under Cubby's.
 */
export const SETTING_ALIASES: Record<string, { key: string; values?: Record<string, string> }> = {
  file_naming_strategy: {
    key: "file_overwrite_mode",
    values: { overwrite: "overwrite", random_suffix: "rename" },
  },
};

/** Cubby's key and value for a key/value pair that may use an alias name. */
export function resolveSettingAlias(key: string, raw: unknown): [string, unknown] {
  const alias = SETTING_ALIASES[key];
  if (!alias) return [key, raw];
  const mapped = typeof raw === "string" ? alias.values?.[raw] : undefined;
  return [alias.key, mapped ?? raw];
}

/** The metadata of a key, or undefined for unknown keys. */
export function settingMeta(key: string): SettingMeta | undefined {
  return BY_KEY.get(key);
}

/** True for a known group number. */
export function isSettingGroup(id: number): id is SettingGroupId {
  return SETTING_GROUPS.some((g) => g.id === id);
}

/** The metadata of one group (system entries only when asked), in display order. */
export function groupMetadata(group: SettingGroupId, includeSystem = false): SettingMeta[] {
  return SETTINGS_METADATA.filter((m) => m.group === group && (includeSystem || !m.system));
}
