/**
 * GET /manifest.webmanifest: the web app manifest, built per request from the site title
 * setting and the visitor's language, so a renamed site installs under its new name.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { MANIFEST_TEXTS } from "../../shared/pwa_manifest.ts";
import { toSiteConfig } from "../../shared/schemas/settings.ts";
import {
  BACKGROUND_COLOR,
  MANIFEST_ICONS,
  SHARE_TARGET_PATH,
  THEME_COLOR,
} from "../../shared/pwa.ts";
import type { Language } from "../../shared/constants.ts";

/** Longest short_name launchers show without cutting it. */
const SHORT_NAME_MAX = 12;

/** The manifest for a site title, in one language. */
export function buildWebManifest(title: string, lang: Language) {
  const texts = MANIFEST_TEXTS[lang];
  const chars = Array.from(title);
  const shortName = chars.length > SHORT_NAME_MAX
    ? chars.slice(0, SHORT_NAME_MAX).join("").trim()
    : title;
  const icons = MANIFEST_ICONS.map((i) => ({
    src: i.src,
    sizes: `${i.size}x${i.size}`,
    type: "image/png",
    purpose: i.purpose,
  }));
  const shortcutIcons = [icons[0]];
  return {
    id: "/",
    name: title,
    short_name: shortName,
    description: texts.description,
    lang,
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ["productivity", "utilities"],
    icons,
    shortcuts: [
      { name: texts.newPaste, url: "/", icons: shortcutIcons },
      { name: texts.upload, url: "/upload", icons: shortcutIcons },
    ],
    share_target: {
      action: SHARE_TARGET_PATH,
      method: "POST",
      enctype: "multipart/form-data",
      params: {
        title: "title",
        text: "text",
        url: "url",
        files: [{ name: "files", accept: ["*/*"] }],
      },
    },
  };
}

/** The manifest route. */
export function webManifestRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/manifest.webmanifest", async (c) => {
    const site = toSiteConfig(await c.get("services").settings.getPublicSiteConfig(), Date.now());
    const body = JSON.stringify(buildWebManifest(site.title, c.get("lang")));
    return c.body(body, 200, {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "no-cache",
      "Vary": "Accept-Language, Cookie",
    });
  });
  return app;
}
