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
import type { Services } from "../container.ts";
import type { Language } from "../../shared/constants.ts";
import type { PageLoad } from "./page_load.ts";
import { renderMarkdown, summarizeText } from "../../shared/markdown.ts";
import { type PasteView, SLUG_PATTERN } from "../../shared/schemas/pastes.ts";
import { loadSanitizer } from "./sanitize.ts";
import { markdown } from "./page_cache.ts";

/** Larger contents are not rendered on the server (sanitising huge input is slow). */
export const SSR_HTML_MAX_BYTES = 256 * 1024;

/** The sanitised Markdown (null above SSR_HTML_MAX_BYTES) and the summary of a paste's text. */
async function renderCached(
  key: string,
  content: string,
  size: number,
): Promise<{ html: string | null; summary: string }> {
  if (size > SSR_HTML_MAX_BYTES) return { html: null, summary: summarizeText(content, 150) };
  // Named by the paste's id and update time, and used only for the very same text.
  const hit = markdown.get(key);
  if (hit && hit.source === content) return hit;
  const html = renderMarkdown(content, await loadSanitizer());
  return markdown.set(key, { source: content, html, summary: summarizeText(content, 150) });
}

/**
 * The page cache's key of a paste page (PageLoad `key`): the page data is made from the record
 * (named by its id and the versionstamp it was read at, which changes with every write of it,
 * content included: the content is inline or in chunks of the record's content id) and the view
 * count, and nothing else.
 */
function pageKey(state: string, view: PasteView, version: string): string {
  return `paste\0${state}\0${view.id}\0${version}\0${view.views}`;
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
      return { status: 404, page: { error: "paste_not_found" }, key: "paste\0missing" };
    case "expired":
      return { status: 410, page: { error: "paste_expired" }, key: "paste\0expired" };
    case "locked":
      return {
        status: 200,
        page: { paste: peek.view, requires: peek.requires },
        key: pageKey(peek.state, peek.view, peek.version),
      };
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
        key: pageKey(peek.state, view, peek.version),
      };
    }
  }
}
