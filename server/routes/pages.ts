/**
 * Every non-API GET is an app page: share pages rendered on the server (and hydrated), the
 * document shell for the rest. The rendering is ssr/app_page.ts; the route adds what depends on
 * the HTTP exchange, the mark that lets the service worker keep an open share.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { markCacheableShare } from "../http/offline_cache.ts";
import { appPageRenderer } from "../ssr/app_page.ts";

export function pageRoutes(distDir: string) {
  const render = appPageRenderer(distDir);
  const app = new Hono<AppEnv>();
  app.get("*", async (c) => {
    const page = await render(c.get("services"), {
      path: c.req.path,
      url: c.req.url,
      lang: c.get("lang"),
    });
    if (page.share) markCacheableShare(c, page.share);
    return c.body(page.body, page.status, page.headers);
  });
  return app;
}
