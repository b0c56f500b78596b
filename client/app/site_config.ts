/**
 * The site config in the browser (docs/PRODUCT.md §3.8, §4.6: reused from the local cache when
 * under 24 hours old). The server embeds a fresh copy in every document (`site` in the
 * embedded data, with the footer and announcement already rendered as `siteHtml`), so a page
 * load normally needs no request. Without an embedded copy (a document served from a cache),
 * the copy in localStorage is used, and refreshed in the background once it is 24 h old.
 * Saving the site settings puts the new values here at once (`setSiteConfig`).
 *
 * Renders stay hydration-safe: the first render uses the embedded copy, as the server did; the
 * store and localStorage are read in effects only.
 */
import { createElement, type ReactNode, useEffect, useMemo, useSyncExternalStore } from "react";
import { api } from "../api/client.ts";
import { type InitialData, InitialDataContext, useInitialData } from "./initial_data.tsx";
import {
  type PublicSiteConfig,
  SITE_CONFIG_DEFAULTS,
  type SiteConfig,
  type SiteData,
  toSiteConfig,
} from "../../shared/schemas/settings.ts";
import { SITE_CONFIG_CACHE_MS } from "../../shared/constants.ts";
import type { PreviewExtensionLists } from "../../shared/preview_types.ts";
import { subscribeStored } from "../lib/storage_sync.ts";

export type { SiteConfig };
export const SITE_CONFIG_STORAGE_KEY = "cubby.siteConfig";
const DEFAULT_FAVICON = "/favicon.svg";

let current: SiteConfig | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** The embedded site data of this document (typed view of the initial data). */
export function siteDataOf(data: InitialData): SiteData {
  return data as InitialData & SiteData;
}

/** True while a cached copy is under 24 hours old. */
export function isFresh(cfg: Pick<SiteConfig, "lastUpdated">, now = Date.now()): boolean {
  return now - cfg.lastUpdated < SITE_CONFIG_CACHE_MS && cfg.lastUpdated <= now + 60_000;
}

/** The copy in localStorage, if it parses (fresh or not). */
export function readCachedSiteConfig(): SiteConfig | null {
  try {
    const raw = globalThis.localStorage?.getItem(SITE_CONFIG_STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<SiteConfig>;
    if (typeof v.title !== "string" || typeof v.lastUpdated !== "number") return null;
    return { ...SITE_CONFIG_DEFAULTS, ...v } as SiteConfig;
  } catch {
    return null;
  }
}

/** Makes `cfg` the site config of this tab and caches it in localStorage. */
export function setSiteConfig(cfg: SiteConfig): void {
  current = cfg;
  try {
    globalThis.localStorage?.setItem(SITE_CONFIG_STORAGE_KEY, JSON.stringify(cfg));
  } catch { /* storage full or unavailable: the copy in memory still applies */ }
  emit();
}

/** Applies part of the site config at once (the settings screens after a save). */
export function patchSiteConfig(patch: Partial<SiteConfig>): void {
  setSiteConfig({ ...(current ?? SITE_CONFIG_DEFAULTS), ...patch, lastUpdated: Date.now() });
}

/** Reads the public site config from the server. Throws ApiError. */
export async function fetchSiteConfig(): Promise<SiteConfig> {
  const pub = await api<PublicSiteConfig>("/public/site-config", { anonymous: true });
  return toSiteConfig(pub, Date.now());
}

function subscribe(l: () => void) {
  return subscribeStored(listeners, SITE_CONFIG_STORAGE_KEY, () => {
    const cached = readCachedSiteConfig();
    if (cached) current = cached;
    return cached !== null;
  }, l);
}

/** The site config: the live copy once loaded, else the document's embedded copy. */
export function useSiteConfig(): SiteConfig {
  const live = useSyncExternalStore(subscribe, () => current, () => null);
  const embedded = siteDataOf(useInitialData()).site;
  return live ?? embedded ?? SITE_CONFIG_DEFAULTS;
}

/** The preview extension lists of the preview settings (for previewTypeOf). */
export function usePreviewLists(): PreviewExtensionLists {
  return useSiteConfig().previewTypes;
}

/**
 * Picks the copy to use on start: the embedded one (the server read it for this document),
 * else the cached one; fetches when neither exists or the chosen one is over 24 h old.
 */
async function syncSiteConfig(embedded: SiteConfig | undefined): Promise<void> {
  const best = embedded ?? readCachedSiteConfig();
  if (best) setSiteConfig(best);
  if (best && isFresh(best)) return;
  try {
    setSiteConfig(await fetchSiteConfig());
  } catch { /* offline: keep what we have */ }
}

/** Points the document's icon link at the configured favicon. */
function useFavicon(url: string) {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    const href = url || DEFAULT_FAVICON;
    if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  }, [url]);
}

/**
 * Keeps the site config in sync (embedded, cached, fetched) and gives the pages below the live
 * site title through the initial data (TopNav and usePageTitle read it there). Also applies the
 * favicon.
 */
export function SiteConfigProvider({ children }: { children: ReactNode }) {
  const initial = useInitialData();
  const site = useSiteConfig();
  const embedded = siteDataOf(initial).site;
  useEffect(() => {
    void syncSiteConfig(embedded);
    // Only on start: later changes arrive through setSiteConfig and storage events.
  }, []);
  useFavicon(site.faviconUrl);
  const value = useMemo(
    () => (site.title === initial.siteTitle ? initial : { ...initial, siteTitle: site.title }),
    [initial, site.title],
  );
  return createElement(InitialDataContext.Provider, { value }, children);
}
