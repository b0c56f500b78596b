/**
 * Every non-API GET is an app page. Share pages are rendered on the server (and hydrated);
 * the rest get the document shell and render in the browser.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { appCsp, renderDocument, scriptJson } from "../ssr/document.ts";
import { NONCE_HOLE, pageCache, TIME_SENTINEL, withTimeHole } from "../ssr/page_cache.ts";
import { formatPageTitle, pageDescriptionKey, pageTitleKey } from "../../client/routes.ts";
import { type BuiltAssets, loadAssets } from "./static.ts";
import { SHARE_PAGE_PATTERNS } from "../../shared/share_pages.ts";
import { randomToken } from "../services/crypto.ts";
import type { Services } from "../services/mod.ts";
import type { Language } from "../../shared/constants.ts";
import {
  type PublicSiteConfig,
  type SiteConfig,
  toSiteConfig,
} from "../../shared/schemas/settings.ts";
import type { SiteData } from "../../client/app/site_config.ts";
import { markCacheableShare } from "../http/offline_cache.ts";
import type { PageLoad } from "../ssr/page_load.ts";
import { loadedReactBuild } from "../react_build.ts";
import { lazyImport } from "../lazy_import.ts";

type Loader = (
  ssr: Ssr,
  services: Services,
  params: string[],
  lang: Language,
) => Promise<PageLoad>;

/**
 * Pages rendered on the server, by path pattern, and the entry that hydrates them: the share
 * pages' own (client/share_main.tsx), or the app's.
 */
const SSR_PAGES: [RegExp, Loader, keyof BuiltAssets][] = [
  [SHARE_PAGE_PATTERNS.paste, (ssr, s, [slug], lang) => ssr.loadPastePage(s, slug, lang), "share"],
  [SHARE_PAGE_PATTERNS.file, (ssr, s, [slug]) => ssr.loadFilePage(s, slug), "share"],
  // The service worker also answers failed navigations with this document (any URL), so it
  // says what it is: the client shows the offline page for it wherever it lands.
  [/^\/offline\/?$/, () => Promise.resolve({ status: 200, page: { offline: true } }), "app"],
];

/**
 * The server-rendering modules: React, react-router, i18next and the client's pages, marked and
 * highlight.js (about 25 MB resident). They are imported by the first page request, not at start.
 */
async function importSsr() {
  const ssr = await lazyImport<typeof import("../ssr/modules.ts")>("server/ssr/modules.ts");
  // Observable proof that NODE_ENV took effect (server/react_build_test.ts reads it).
  console.log(`React server build: ${loadedReactBuild()}`);
  return ssr;
}
type Ssr = Awaited<ReturnType<typeof importSsr>>;
let ssrModules: Promise<Ssr> | null = null;

/** The server-rendering modules, imported once. */
function loadSsr(): Promise<Ssr> {
  ssrModules ??= importSsr().catch((err) => {
    ssrModules = null;
    throw err;
  });
  return ssrModules;
}

const siteMarkdownMemo = new Map<string, string>();

/** The footer or announcement Markdown as sanitised HTML, memoised by its source. */
async function siteMarkdown(ssr: Ssr, source: string): Promise<string> {
  if (!source.trim()) return "";
  let html = siteMarkdownMemo.get(source);
  if (html === undefined) {
    html = ssr.renderMarkdown(source, await ssr.loadSanitizer());
    if (siteMarkdownMemo.size >= 8) siteMarkdownMemo.clear();
    siteMarkdownMemo.set(source, html);
  }
  return html;
}

/** What every document embeds of the site settings, made once per settings reading. */
type PageSite = {
  site: SiteConfig;
  siteHtml: { footer: string; announcement: string };
  /** Different for different settings: part of the page cache's key. */
  version: number;
};
const pageSites = new WeakMap<PublicSiteConfig, PageSite>();
/** Versions by the settings' content, so that a re-read of unchanged settings keeps its own. */
const siteVersions = new Map<string, number>();
let lastVersion = 0;

function siteVersion(pub: PublicSiteConfig): number {
  const text = JSON.stringify(pub);
  let version = siteVersions.get(text);
  if (version === undefined) {
    version = ++lastVersion;
    if (siteVersions.size >= 16) siteVersions.clear();
    siteVersions.set(text, version);
  }
  return version;
}

/** The site data of documents for a settings reading (the same object while it is current). */
async function pageSite(ssr: Ssr, pub: PublicSiteConfig): Promise<PageSite> {
  let found = pageSites.get(pub);
  if (!found) {
    const site = toSiteConfig(pub, 0);
    const siteHtml = {
      footer: await siteMarkdown(ssr, site.footerMarkdown),
      announcement: site.announcementEnabled
        ? await siteMarkdown(ssr, site.announcementContent)
        : "",
    };
    found = { site, siteHtml, version: siteVersion(pub) };
    pageSites.set(pub, found);
  }
  return found;
}

const subtitles = new Map<string, string>();

/** The translated page title of a title key (the translations never change in a process). */
function pageSubtitle(ssr: Ssr, lang: Language, key: string): string {
  const id = `${lang}\0${key}`;
  let text = subtitles.get(id);
  if (text === undefined) {
    text = ssr.serverI18n(lang).t(key);
    subtitles.set(id, text); // bounded: pageTitleKey gives a fixed set of keys
  }
  return text;
}

/** The path and query of an absolute request URL. */
function pathAndQuery(url: string): string {
  const at = url.indexOf("/", url.indexOf("//") + 2);
  return at < 0 ? "/" : url.slice(at);
}

type PageData = { siteTitle: string; page?: Record<string, unknown> } & SiteData;

export function pageRoutes() {
  const app = new Hono<AppEnv>();
  let assets: Promise<BuiltAssets> | null = null;

  app.get("*", async (c) => {
    const services = c.get("services");
    // Awaited here, before any other wait: a build that cannot be read answers this request
    // with an error instead of rejecting unobserved, and the next request reads it again.
    assets ??= loadAssets(services.config.distDir).catch((err) => {
      assets = null;
      throw err;
    });
    const built = await assets;
    const ssr = await loadSsr();
    const lang = c.get("lang");
    // Site settings apply to every document as soon as they are saved (docs/PRODUCT.md §1).
    const { site, siteHtml, version } = await pageSite(
      ssr,
      await services.settings.getPublicSiteConfig(),
    );
    const path = c.req.path;
    const url = pathAndQuery(c.req.url);

    let load: PageLoad | undefined;
    let entry: keyof BuiltAssets = "app";
    for (const [pattern, loader, pageEntry] of SSR_PAGES) {
      const m = path.match(pattern);
      if (!m) continue;
      let params: string[];
      try {
        params = m.slice(1).map(decodeURIComponent);
      } catch {
        break; // a malformed escape: render the shell, the app shows not-found
      }
      load = await loader(ssr, services, params, lang);
      entry = pageEntry;
      break;
    }
    if (load?.share && load.status === 200) markCacheableShare(c, load.share);
    const status = load?.status ?? 200;
    // A shell (a page the browser renders) depends on its URL only through its title, so a query
    // or a path of its own does not take another entry.
    const key = load
      ? `${lang}\0${version}\0${url}\0${status}\0${JSON.stringify(load.page)}`
      : `${lang}\0${version}\0shell\0${pageTitleKey(path)}`;
    const template = pageCache.get(key, () => {
      const data: PageData = {
        siteTitle: site.title,
        site: { ...site, lastUpdated: TIME_SENTINEL },
        siteHtml,
        page: load?.page,
      };
      return renderDocument({
        lang,
        title: formatPageTitle(pageSubtitle(ssr, lang, pageTitleKey(path)), site.title),
        description: load?.description ?? pageSubtitle(ssr, lang, pageDescriptionKey(path)),
        html: load ? ssr.renderApp(url, lang, data) : "",
        data,
        dataJson: withTimeHole(scriptJson(data)),
        assets: built[entry],
        nonce: NONCE_HOLE,
        faviconUrl: site.faviconUrl,
        appName: site.title,
        customHead: site.customHead,
        customBody: site.customBody,
      });
    });
    const nonce = randomToken(16);
    c.header("Content-Security-Policy", appCsp(nonce));
    c.header("Cache-Control", "no-store");
    c.header("Content-Type", "text/html; charset=UTF-8");
    return c.body(template.fill(nonce, Date.now()), status);
  });
  return app;
}
