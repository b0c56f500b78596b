/** The HTML document shell around the app, with a per-request CSP nonce. */
import { THEME_BOOT_SCRIPT } from "../../client/app/theme.ts";
import type { InitialData } from "../../client/app/initial_data.tsx";
import type { Language } from "../../shared/constants.ts";
import { APPLE_TOUCH_ICON, THEME_COLOR } from "../../shared/pwa.ts";

/** The built client: entry script, stylesheets, and each language's locale chunk. */
export type Assets = {
  js: string | null;
  css: string[];
  languages?: Partial<Record<Language, string>>;
};

export type DocumentParts = {
  lang: Language;
  title: string;
  description?: string;
  /** Server-rendered markup; empty for pages the browser renders alone. */
  html: string;
  data: InitialData;
  /** `data` already serialised with scriptJson (a cached page); else `data` is serialised. */
  dataJson?: string;
  assets: Assets;
  nonce: string;
  faviconUrl?: string;
  /** The site title: the installed app's name on iOS home screens. */
  appName?: string;
  /** Admin-set HTML from the site settings, inserted as configured (see withNonce). */
  customHead?: string;
  customBody?: string;
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

const SCRIPT_UNSAFE: Record<string, string> = {
  "<": "\\u003c",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** JSON that is safe inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<\u2028\u2029]/g, (ch) => SCRIPT_UNSAFE[ch]);
}

/**
 * Gives every <script> of admin-set custom head or body HTML the page's CSP nonce, so that
 * analytics and widget snippets run as configured. This is the one deliberate exception to
 * sanitising (docs/PRODUCT.md §13.7): only the admin can set it. Inline event-handler attributes
 * still do not run, because the CSP allows no 'unsafe-inline' scripts.
 */
export function withNonce(html: string, nonce: string): string {
  return html.replace(/<script(?=[\s>/])/gi, `<script nonce="${nonce}"`);
}

const NONCE_MARK = "\0nonce\0";
/** The Content-Security-Policy of app pages, split where the nonce goes (built once). */
const CSP_PARTS = [
  "default-src 'self'",
  `script-src 'self' 'nonce-${NONCE_MARK}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self' blob: https: http:",
  "frame-src 'self' blob: https://view.officeapps.live.com https://docs.google.com",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ").split(NONCE_MARK);

/** The Content-Security-Policy of app pages. */
export function appCsp(nonce: string): string {
  return CSP_PARTS[0] + nonce + CSP_PARTS[1];
}

/** Renders the full HTML document. */
export function renderDocument(p: DocumentParts): string {
  const css = p.assets.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join(
    "",
  );
  // The page language's texts run first, so the entry hydrates without waiting for them
  // (client/i18n/registry.ts).
  const texts = p.assets.languages?.[p.lang];
  const js = p.assets.js
    ? (texts
      ? `<script type="module" nonce="${p.nonce}" src="${escapeHtml(texts)}"></script>`
      : "") +
      `<script type="module" nonce="${p.nonce}" src="${escapeHtml(p.assets.js)}"></script>`
    : "";
  const desc = p.description
    ? `<meta name="description" content="${escapeHtml(p.description)}">` +
      `<meta property="og:description" content="${escapeHtml(p.description)}">`
    : "";
  return `<!doctype html>
<html lang="${p.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${THEME_COLOR}">
<title>${escapeHtml(p.title)}</title>
<meta property="og:title" content="${escapeHtml(p.title)}">
${desc}
<link rel="icon" href="${escapeHtml(p.faviconUrl || "/favicon.svg")}">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="apple-touch-icon" href="${APPLE_TOUCH_ICON.src}">
<meta name="mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-status-bar-style" content="default">
<meta name="apple-mobile-web-app-title" content="${escapeHtml(p.appName ?? p.title)}">
${css}
<script nonce="${p.nonce}">${THEME_BOOT_SCRIPT}</script>
${p.customHead ? withNonce(p.customHead, p.nonce) : ""}
</head>
<body>
<div id="root"${p.html ? ' data-ssr="1"' : ""}>${p.html}</div>
<script id="__cubby_data" type="application/json">${p.dataJson ?? scriptJson(p.data)}</script>
${js}
${p.customBody ? withNonce(p.customBody, p.nonce) : ""}
</body>
</html>`;
}
