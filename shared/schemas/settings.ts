/**
 * System settings (spec §3 "Settings", §7 "System"). One typed metadata table drives the
 * defaults, the validation (the same code on the server and in the settings screens), the
 * metadata endpoint and the labels of the settings screens. Groups: 1 global, 2 preview,
 * 3 WebDAV, 4 site. Values are stored typed (number, boolean or string) under
 * `["settings", key]`.
 */
import { APP_NAME } from "../constants.ts";
import {
  DEFAULT_PREVIEW_EXTENSIONS,
  parseExtensionList,
  PREVIEW_LIST_TYPES,
  type PreviewExtensionLists,
  type PreviewListType,
} from "../preview_types.ts";
import type { ErrorCode } from "../errors.ts";

/** The settings groups, by number (spec §3: the site group is 4). */
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
const BIG_TEXT = 30_000;
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

const previewKey = (type: PreviewListType) => `preview_${type}_types`;

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

/** A failed check: an `errors.<code>` key and its interpolation values. */
export type SettingIssue = { error: ErrorCode; params?: Record<string, string | number> };
export type SettingCheck = { ok: true; value: SettingValue } | ({ ok: false } & SettingIssue);

const EXTENSION = /^[a-z0-9][a-z0-9_+-]{0,31}$/;

/** http, https and data: URLs only (spec §5 "Favicon"); "" means the built-in icon. */
export function isFaviconUrl(value: string): boolean {
  if (value === "") return true;
  if (/^data:[a-z0-9.+-]+\/[a-z0-9.+-]+(?:;[a-z0-9=.+-]+)*,/i.test(value)) return true;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** An http or https address with a host (the source link); "" means none. */
export function isHttpUrl(value: string): boolean {
  if (value === "") return true;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * Checks and normalises one value against its metadata. Numbers and booleans may also come as
 * strings ("100", "true"), as form fields and queued offline requests send them. Extension
 * lists are normalised to lower case, ", "-separated, without dots or duplicates.
 */
export function checkSettingValue(m: SettingMeta, raw: unknown): SettingCheck {
  const fail = (error: ErrorCode, params?: SettingIssue["params"]): SettingCheck => ({
    ok: false,
    error,
    params,
  });
  if (m.system) return fail("setting_read_only");
  switch (m.type) {
    case "integer": {
      const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isInteger(n) || n < m.min! || n > m.max!) {
        return fail("setting_integer_invalid", { min: m.min!, max: m.max! });
      }
      return { ok: true, value: n };
    }
    case "boolean": {
      if (typeof raw === "boolean") return { ok: true, value: raw };
      if (raw === "true" || raw === "1" || raw === 1) return { ok: true, value: true };
      if (raw === "false" || raw === "0" || raw === 0) return { ok: true, value: false };
      return fail("setting_boolean_invalid");
    }
    case "enum": {
      if (typeof raw !== "string" || !m.options!.includes(raw)) {
        return fail("setting_option_invalid", { options: m.options!.join(", ") });
      }
      return { ok: true, value: raw };
    }
    default: {
      if (typeof raw !== "string") return fail("setting_text_invalid");
      const max = m.max_length ?? BIG_TEXT;
      if (raw.length > max) return fail("setting_too_long", { max });
      if (m.type === "string" || m.type === "url" || m.type === "link") {
        const value = raw.trim();
        // deno-lint-ignore no-control-regex
        if (/[\u0000-\u001f\u007f]/.test(value)) return fail("setting_text_invalid");
        if (m.type === "url" && !isFaviconUrl(value)) return fail("setting_url_invalid");
        if (m.type === "link" && !isHttpUrl(value)) return fail("setting_link_invalid");
        return { ok: true, value };
      }
      if (m.type === "extensions") {
        const list = parseExtensionList(raw);
        if (!list.every((ext) => EXTENSION.test(ext))) return fail("setting_extensions_invalid");
        return { ok: true, value: list.join(", ") };
      }
      return { ok: true, value: raw };
    }
  }
}

/** The site settings the browser needs (spec §3 "Site config"), plus the preview lists. */
export type SiteConfig = {
  /** The effective title: the site title, or the product name when it is empty. */
  title: string;
  /** "" means the built-in icon. */
  faviconUrl: string;
  footerMarkdown: string;
  announcementEnabled: boolean;
  announcementContent: string;
  customHead: string;
  customBody: string;
  /** The top bar's source-code link; "" hides it. */
  sourceUrl: string;
  /**
   * The extension lists of the preview settings. Anonymous visitors' file pages choose their
   * preview in the browser, so these travel with the public site config (they are not secret).
   */
  previewTypes: PreviewExtensionLists;
  /** When this copy was read from the server (ms since the epoch): the 24 h cache clock. */
  lastUpdated: number;
};

/** What GET /api/public/site-config returns: the site group's values and the preview lists. */
export type PublicSiteConfig = {
  site_title: string;
  site_favicon_url: string;
  site_footer_markdown: string;
  site_announcement_enabled: boolean;
  site_announcement_content: string;
  site_custom_head: string;
  site_custom_body: string;
  site_source_url: string;
  site_updated_at: string;
  preview_types: Record<PreviewListType, string[]>;
};

/** The client's SiteConfig from the public API answer. */
export function toSiteConfig(p: PublicSiteConfig, now: number): SiteConfig {
  return {
    title: p.site_title.trim() || APP_NAME,
    faviconUrl: p.site_favicon_url,
    footerMarkdown: p.site_footer_markdown,
    announcementEnabled: p.site_announcement_enabled,
    announcementContent: p.site_announcement_content,
    customHead: p.site_custom_head,
    customBody: p.site_custom_body,
    sourceUrl: p.site_source_url ?? "",
    previewTypes: p.preview_types,
    lastUpdated: now,
  };
}

/** The preview lists from stored values (comma-separated strings) or the defaults. */
export function previewListsFrom(
  valueOf: (key: string) => SettingValue,
): Record<PreviewListType, string[]> {
  const out = {} as Record<PreviewListType, string[]>;
  for (const type of PREVIEW_LIST_TYPES) {
    out[type] = parseExtensionList(String(valueOf(previewKey(type))));
  }
  return out;
}

/** The settings the site config is built from (the site group without system entries). */
export const SITE_CONFIG_DEFAULTS: SiteConfig = toSiteConfig(
  {
    site_title: APP_NAME,
    site_favicon_url: "",
    site_footer_markdown: "",
    site_announcement_enabled: false,
    site_announcement_content: "",
    site_custom_head: "",
    site_custom_body: "",
    site_source_url: "",
    site_updated_at: "",
    preview_types: previewListsFrom((key) => settingMeta(key)!.default),
  },
  0,
);
