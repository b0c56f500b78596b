/**
 * Every non-API GET is an app page. Share pages are rendered on the server (and hydrated);
 * the rest get the document shell and render in the browser.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { appCsp, renderDocument } from "../ssr/document.ts";
import { renderApp, serverI18n } from "../ssr/render.tsx";
import { formatPageTitle, pageTitleKey } from "../../client/routes.ts";
import { loadAssets } from "./static.ts";
import { randomToken } from "../services/crypto.ts";
import { loadPastePage } from "../ssr/paste_page.ts";
import { loadFilePage } from "../ssr/file_page.ts";
import type { Services } from "../services/mod.ts";
import type { Language } from "../../shared/constants.ts";
import { toSiteConfig } from "../../shared/schemas/settings.ts";
import { renderMarkdown } from "../../shared/markdown.ts";
import { sanitizeHtml } from "../ssr/sanitize.ts";
import type { SiteData } from "../../client/app/site_config.ts";

/** What a server-rendered page needs: its status, data for the app and a description. */
export type PageLoad = {
  status: 200 | 404 | 410;
  page: Record<string, unknown>;
  description?: string;
};

type Loader = (services: Services, params: string[], lang: Language) => Promise<PageLoad>;

/** Pages rendered on the server, by path pattern. */
const SSR_PAGES: [RegExp, Loader][] = [
  [/^\/paste\/([^/]+)\/?$/, (s, [slug], lang) => loadPastePage(s, slug, lang)],
  [/^\/file\/([^/]+)\/?$/, (s, [slug]) => loadFilePage(s, slug)],
  [/^\/offline\/?$/, () => Promise.resolve({ status: 200, page: {} })],
];

const siteMarkdownMemo = new Map<string, string>();

/** The footer or announcement Markdown as sanitised HTML, memoised by its source. */
function siteMarkdown(source: string): string {
  if (!source.trim()) return "";
  let html = siteMarkdownMemo.get(source);
  if (html === undefined) {
    html = renderMarkdown(source, sanitizeHtml);
    if (siteMarkdownMemo.size >= 8) siteMarkdownMemo.clear();
    siteMarkdownMemo.set(source, html);
  }
  return html;
}

export function pageRoutes() {
  const app = new Hono<AppEnv>();
  let assets: Promise<{ js: string | null; css: string[] }> | null = null;

  app.get("*", async (c) => {
    const services = c.get("services");
    assets ??= loadAssets(services.config.distDir);
    const lang = c.get("lang");
    const t = serverI18n(lang).t;
    // Site settings apply to every document as soon as they are saved (spec §1).
    const site = toSiteConfig(await services.settings.getPublicSiteConfig(), Date.now());
    const siteTitle = site.title;
    const path = c.req.path;
    const title = formatPageTitle(t(pageTitleKey(path)), siteTitle);
    const nonce = randomToken(16);

    let html = "";
    let status: 200 | 404 | 410 = 200;
    let description: string | undefined;
    const siteHtml = {
      footer: siteMarkdown(site.footerMarkdown),
      announcement: site.announcementEnabled ? siteMarkdown(site.announcementContent) : "",
    };
    const data: { siteTitle: string; page?: Record<string, unknown> } & SiteData = {
      siteTitle,
      site,
      siteHtml,
    };
    for (const [pattern, loader] of SSR_PAGES) {
      const m = path.match(pattern);
      if (!m) continue;
      let params: string[];
      try {
        params = m.slice(1).map(decodeURIComponent);
      } catch {
        break; // a malformed escape: render the shell, the app shows not-found
      }
      const load = await loader(services, params, lang);
      status = load.status;
      description = load.description;
      data.page = load.page;
      html = renderApp(c.req.url.slice(new URL(c.req.url).origin.length), lang, data);
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
        assets: await assets,
        nonce,
        faviconUrl: site.faviconUrl,
        customHead: site.customHead,
        customBody: site.customBody,
      }),
      status,
    );
  });
  return app;
}
