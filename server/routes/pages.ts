/**
 * Every non-API GET is an app page. Share pages are rendered on the server (and hydrated);
 * the rest get the document shell and render in the browser.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { appCsp, renderDocument } from "../ssr/document.ts";
import { formatPageTitle, pageTitleKey } from "../../client/routes.ts";
import { type BuiltAssets, loadAssets } from "./static.ts";
import { SHARE_PAGE_PATTERNS } from "../../shared/share_pages.ts";
import { randomToken } from "../services/crypto.ts";
import type { Services } from "../services/mod.ts";
import type { Language } from "../../shared/constants.ts";
import { toSiteConfig } from "../../shared/schemas/settings.ts";
import type { SiteData } from "../../client/app/site_config.ts";
import { markCacheableShare } from "../http/offline_cache.ts";
import type { PageLoad } from "../ssr/page_load.ts";
import { loadedReactBuild } from "../react_build.ts";

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
  const [render, pastePage, filePage, markdown, sanitize] = await Promise.all([
    import("../ssr/render.tsx"),
    import("../ssr/paste_page.ts"),
    import("../ssr/file_page.ts"),
    import("../../shared/markdown.ts"),
    import("../ssr/sanitize.ts"),
  ]);
  // Observable proof that NODE_ENV took effect (server/react_build_test.ts reads it).
  console.log(`React server build: ${loadedReactBuild()}`);
  return {
    renderApp: render.renderApp,
    serverI18n: render.serverI18n,
    loadPastePage: pastePage.loadPastePage,
    loadFilePage: filePage.loadFilePage,
    renderMarkdown: markdown.renderMarkdown,
    loadSanitizer: sanitize.loadSanitizer,
  };
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

export function pageRoutes() {
  const app = new Hono<AppEnv>();
  let assets: Promise<BuiltAssets> | null = null;

  app.get("*", async (c) => {
    const services = c.get("services");
    assets ??= loadAssets(services.config.distDir);
    const ssr = await loadSsr();
    const lang = c.get("lang");
    const t = ssr.serverI18n(lang).t;
    // Site settings apply to every document as soon as they are saved (spec §1).
    const site = toSiteConfig(await services.settings.getPublicSiteConfig(), Date.now());
    const siteTitle = site.title;
    const path = c.req.path;
    const title = formatPageTitle(t(pageTitleKey(path)), siteTitle);
    const nonce = randomToken(16);

    let html = "";
    let status: 200 | 404 | 410 = 200;
    let description: string | undefined;
    let entry: keyof BuiltAssets = "app";
    const siteHtml = {
      footer: await siteMarkdown(ssr, site.footerMarkdown),
      announcement: site.announcementEnabled
        ? await siteMarkdown(ssr, site.announcementContent)
        : "",
    };
    const data: { siteTitle: string; page?: Record<string, unknown> } & SiteData = {
      siteTitle,
      site,
      siteHtml,
    };
    for (const [pattern, loader, pageEntry] of SSR_PAGES) {
      const m = path.match(pattern);
      if (!m) continue;
      let params: string[];
      try {
        params = m.slice(1).map(decodeURIComponent);
      } catch {
        break; // a malformed escape: render the shell, the app shows not-found
      }
      const load = await loader(ssr, services, params, lang);
      status = load.status;
      description = load.description;
      data.page = load.page;
      if (load.share && status === 200) markCacheableShare(c, load.share);
      entry = pageEntry;
      html = ssr.renderApp(c.req.url.slice(new URL(c.req.url).origin.length), lang, data);
      break;
    }
    c.header("Content-Security-Policy", appCsp(nonce));
    c.header("Cache-Control", "no-store");
    return c.html(
      renderDocument({
        lang,
        title,
        description,
        html,
        data,
        assets: (await assets)[entry],
        nonce,
        faviconUrl: site.faviconUrl,
        appName: siteTitle,
        customHead: site.customHead,
        customBody: site.customBody,
      }),
      status,
    );
  });
  return app;
}
