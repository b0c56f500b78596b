/**
 * The one entry of server rendering: an app document for a path, as status, bytes and headers.
 *
 * Share pages (`/paste/:slug`, `/file/:slug`) are rendered here and hydrated by the share entry
 * (client/share_main.tsx); `/offline` says what it is for the service worker; every other path
 * gets the document shell, which the app's entry renders in the browser. A request goes: match
 * the path (SSR_PAGES) → its loader reads the share without counting a view (paste_page.ts,
 * file_page.ts) → the document comes from the cache (page_cache.ts) or is rendered → the
 * request's nonce and time are filled in.
 */
import { appCsp, renderDocument, scriptJson } from "./document.ts";
import {
  documentFor,
  documents,
  markdown,
  NONCE_HOLE,
  type PageSite,
  sites,
  siteVersions,
  TIME_SENTINEL,
  titles,
  withTimeHole,
} from "./page_cache.ts";
import { type BuiltAssets, loadAssets } from "./assets.ts";
import type { PageLoad } from "./page_load.ts";
import type { ShareAccess } from "../http/offline_cache.ts";
import type { Services } from "../container.ts";
import { randomNonce } from "../lib/crypto.ts";
import { loadedReactBuild } from "../react_build.ts";
import { lazyImport } from "../lazy_import.ts";
import { formatPageTitle, pageDescriptionKey, pageTitleKey } from "../../shared/app_paths.ts";
import { SHARE_PAGE_PATTERNS } from "../../shared/share_pages.ts";
import type { Language } from "../../shared/constants.ts";
import {
  type PublicSiteConfig,
  type SiteData,
  toSiteConfig,
} from "../../shared/schemas/settings.ts";

/** A rendered app document. */
export type AppPage = {
  status: PageLoad["status"];
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
  /** The open share shown, when there is one: its reply may be kept for offline reading. */
  share?: ShareAccess;
};

/**
 * The server-rendering modules: React, react-router, i18next and the client's pages, marked and
 * highlight.js (about 25 MB resident). They are imported by the first page request, not at start.
 */
async function importSsr() {
  const ssr = await lazyImport<typeof import("./modules.ts")>("server/ssr/modules.ts");
  // Observable proof that NODE_ENV took effect (server/react_build_test.ts reads it).
  console.log(`React server build: ${loadedReactBuild()}`);
  return ssr;
}
type Ssr = Awaited<ReturnType<typeof importSsr>>;
let ssrModules: Promise<Ssr> | null = null;

/** The server-rendering modules, imported once (again after a failed import). */
function loadSsr(): Promise<Ssr> {
  ssrModules ??= importSsr().catch((err) => {
    ssrModules = null;
    throw err;
  });
  return ssrModules;
}

type Loader = (ssr: Ssr, services: Services, params: string[], lang: Language) => Promise<PageLoad>;

/** Pages rendered on the server, by path pattern, and the entry that hydrates them. */
const SSR_PAGES: [RegExp, Loader, keyof BuiltAssets][] = [
  [SHARE_PAGE_PATTERNS.paste, (ssr, s, [slug], lang) => ssr.loadPastePage(s, slug, lang), "share"],
  [SHARE_PAGE_PATTERNS.file, (ssr, s, [slug]) => ssr.loadFilePage(s, slug), "share"],
  // The service worker also answers failed navigations with this document (any URL), so it
  // says what it is: the client shows the offline page for it wherever it lands.
  [/^\/offline\/?$/, () => Promise.resolve({ status: 200, page: { offline: true } }), "app"],
];

/** The footer or announcement Markdown as sanitised HTML. */
async function siteMarkdown(ssr: Ssr, source: string): Promise<string> {
  if (!source.trim()) return "";
  const key = `site\0${source}`;
  const hit = markdown.get(key);
  if (hit) return hit.html ?? "";
  const html = ssr.renderMarkdown(source, await ssr.loadSanitizer());
  return markdown.set(key, { source, html, summary: "" }).html ?? "";
}

/** The number that names a content of the site settings in documents' keys. */
let lastVersion = 0;
function siteVersion(pub: PublicSiteConfig): number {
  return siteVersions.getOrMake(JSON.stringify(pub), () => ++lastVersion);
}

/** The site data of documents for a settings reading (the same object while it is current). */
async function pageSite(ssr: Ssr, pub: PublicSiteConfig): Promise<PageSite> {
  const hit = sites.get(pub);
  if (hit) return hit;
  const site = toSiteConfig(pub, 0);
  const siteHtml = {
    footer: await siteMarkdown(ssr, site.footerMarkdown),
    announcement: site.announcementEnabled ? await siteMarkdown(ssr, site.announcementContent) : "",
  };
  return sites.set(pub, { site, siteHtml, version: siteVersion(pub) });
}

/** The translation of a title or description key (translations never change in a process). */
function translated(ssr: Ssr, lang: Language, key: string): string {
  return titles.getOrMake(`${lang}\0${key}`, () => ssr.serverI18n(lang).t(key));
}

/** The path and query of an absolute request URL. */
function pathAndQuery(url: string): string {
  const at = url.indexOf("/", url.indexOf("//") + 2);
  return at < 0 ? "/" : url.slice(at);
}

/** The data a document embeds for the app. */
type PageData = { siteTitle: string; page?: Record<string, unknown> } & SiteData;

/** What a page request says: its path, its whole URL and the visitor's language. */
export type AppPageRequest = { path: string; url: string; lang: Language };

/**
 * Renders app documents from the client build in `distDir`. The build's manifest is read by the
 * first request (a build that cannot be read fails that request, and the next reads it again).
 */
export function appPageRenderer(distDir: string) {
  let assets: Promise<BuiltAssets> | null = null;
  const builtAssets = () =>
    assets ??= loadAssets(distDir).catch((err) => {
      assets = null;
      throw err;
    });

  return async (services: Services, req: AppPageRequest): Promise<AppPage> => {
    const built = await builtAssets();
    const ssr = await loadSsr();
    const { path, lang } = req;
    const url = pathAndQuery(req.url);
    // Site settings apply to every document as soon as they are saved (docs/PRODUCT.md §1).
    const { site, siteHtml, version } = await pageSite(
      ssr,
      await services.settings.getPublicSiteConfig(),
    );

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
    const status = load?.status ?? 200;
    // A shell (a page the browser renders) depends on its URL only through its title, so a query
    // or a path of its own does not take another entry. A page's data is named by the loader's
    // key when it gives one (serialising the data, a whole paste, cost more than the rest of
    // the request's own work).
    const key = load
      ? `${lang}\0${version}\0${url}\0${status}\0${load.key ?? JSON.stringify(load.page)}`
      : `${lang}\0${version}\0shell\0${pageTitleKey(path)}`;
    const template = documentFor(documents, key, () => {
      const data: PageData = {
        siteTitle: site.title,
        site: { ...site, lastUpdated: TIME_SENTINEL },
        siteHtml,
        page: load?.page,
      };
      return renderDocument({
        lang,
        title: formatPageTitle(translated(ssr, lang, pageTitleKey(path)), site.title),
        description: load?.description ?? translated(ssr, lang, pageDescriptionKey(path)),
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
    const nonce = randomNonce();
    return {
      status,
      body: template.fill(nonce, Date.now()),
      headers: {
        "Content-Security-Policy": appCsp(nonce),
        "Cache-Control": "no-store",
        "Content-Type": "text/html; charset=UTF-8",
      },
      share: load?.share && load.status === 200 ? load.share : undefined,
    };
  };
}
