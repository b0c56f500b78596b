/**
 * Server rendering of `/paste/{slug}`. It never counts a view (docs/PRODUCT.md §12.5): link
 * unfurlers and bots must not use up a view-limited share, so such shares render metadata only.
 *
 * The shape of `useInitialData().page` for the React PastePage:
 *
 * - status 200, a plain share (no password, max_views 0):
 *   `{ paste: PasteView, html: string | null }`. `paste.content` is the full text. `html` is
 *   the sanitised Markdown (renderMarkdown + the shared SANITIZE_CONFIG), or `null` when the
 *   content is larger than SSR_HTML_MAX_BYTES: render it in the browser then.
 * - status 200, a password-protected or view-limited share:
 *   `{ paste: PasteView & { content: null }, requires: "password" | "view" }`.
 *   "password": ask for it, then `POST /api/paste/{slug}` `{password}` (counts a view).
 *   "view": fetch `GET /api/paste/{slug}` from the browser (counts a view).
 *   `paste.views` is the count so far; `remark`, `expires_at`, `max_views` are shown as is.
 * - status 410: `{ error: "paste_expired" }` (past its expiry, or out of views).
 * - status 404: `{ error: "paste_not_found" }`.
 *
 * `paste.can_manage` is always false here: a page request carries no Authorization header.
 * The client decides from its own auth state (admin, or `created_by === "apikey:{key id}"`).
 * PasteView is the type in shared/schemas/pastes.ts.
 */
import type { Services } from "../services/mod.ts";
import type { Language } from "../../shared/constants.ts";
import type { PageLoad } from "./page_load.ts";
import { renderMarkdown, summarizeText } from "../../shared/markdown.ts";
import { SLUG_PATTERN } from "../../shared/schemas/pastes.ts";
import { loadSanitizer } from "./sanitize.ts";

/** Larger contents are not rendered on the server (sanitising huge input is slow). */
export const SSR_HTML_MAX_BYTES = 256 * 1024;

const CACHE_TTL_MS = 10 * 60_000;
const CACHE_MAX_ENTRIES = 100;
/**
 * Sanitised HTML and summary by paste id and update time. An entry is used only for the very
 * same content (compared in full), so it is correct whatever the key: a TTL cache of work only.
 */
const htmlCache = new Map<
  string,
  { content: string; html: string | null; summary: string; at: number }
>();

/** The sanitised Markdown (null above SSR_HTML_MAX_BYTES) and the summary of a paste's text. */
async function renderCached(
  key: string,
  content: string,
  size: number,
): Promise<{ html: string | null; summary: string }> {
  if (size > SSR_HTML_MAX_BYTES) return { html: null, summary: summarizeText(content, 150) };
  const now = Date.now();
  const hit = htmlCache.get(key);
  if (hit && hit.content === content && now - hit.at < CACHE_TTL_MS) return hit;
  const html = renderMarkdown(content, await loadSanitizer());
  const summary = summarizeText(content, 150);
  if (htmlCache.size >= CACHE_MAX_ENTRIES) {
    for (const [k, v] of htmlCache) if (now - v.at >= CACHE_TTL_MS) htmlCache.delete(k);
    if (htmlCache.size >= CACHE_MAX_ENTRIES) htmlCache.delete(htmlCache.keys().next().value!);
  }
  htmlCache.set(key, { content, html, summary, at: now });
  return { html, summary };
}

/** Loads the data of a paste page without counting a view; see the module comment for shapes. */
export async function loadPastePage(
  services: Services,
  slug: string,
  _lang: Language,
): Promise<PageLoad> {
  const peek = SLUG_PATTERN.test(slug)
    ? await services.pastes.peek(slug)
    : { state: "missing" as const };
  switch (peek.state) {
    case "missing":
      return { status: 404, page: { error: "paste_not_found" } };
    case "expired":
      return { status: 410, page: { error: "paste_expired" } };
    case "locked":
      return { status: 200, page: { paste: peek.view, requires: peek.requires } };
    case "open": {
      const { view } = peek;
      const content = view.content ?? "";
      const { html, summary } = await renderCached(
        `${view.id}|${view.updated_at}`,
        content,
        view.content_size,
      );
      return {
        status: 200,
        page: { paste: view, html },
        description: summary,
        share: view,
      };
    }
  }
}
