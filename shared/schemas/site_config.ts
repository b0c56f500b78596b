/** The site config (docs/PRODUCT.md §3.8): the public site settings and the preview lists. */
import { APP_NAME } from "../constants.ts";
import {
  parseExtensionList,
  PREVIEW_LIST_TYPES,
  type PreviewExtensionLists,
  type PreviewListType,
} from "../preview_types.ts";
import { previewKey, settingMeta, type SettingValue } from "./settings_metadata.ts";

/** The site settings the browser needs (docs/PRODUCT.md §3.8), plus the preview lists. */
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

/** What the server adds to the embedded data of every document. */
export type SiteData = {
  site?: SiteConfig;
  /** The footer and announcement Markdown of `site`, rendered and sanitised by the server. */
  siteHtml?: { footer: string; announcement: string };
};
