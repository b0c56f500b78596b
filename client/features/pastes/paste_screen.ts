/**
 * What the paste view (PastePage.tsx) shows, as a state: its first value comes from the
 * server's page data alone, so the first client render matches the server's markup.
 */
import { ApiError } from "../../api/client.ts";
import type { PasteView } from "./pastes_api.ts";
import { lockedScreen } from "../../lib/share_lock.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";

/** The server's page data for /paste/{slug} (server/ssr/paste_page.ts). */
export type PastePageData = {
  paste?: PasteView | null;
  html?: string | null;
  requires?: "password" | "view";
  error?: string;
  slug?: string;
};

export type PasteScreenState =
  /** Fetching the content (view-limited share, or reached by in-app navigation). */
  | { kind: "loading"; meta: PasteView | null }
  | { kind: "password"; meta: PasteView | null }
  /** `html` null: render `paste.content` in the browser. */
  | {
    kind: "ready";
    paste: PasteView;
    html: string | null;
    password?: string;
    /** Set when shown from the offline store because the network failed. */
    offlineSavedAt?: number;
  }
  | { kind: "error"; code: string; message?: string }
  /** End-to-end encrypted: opened and decrypted by E2EPasteView with the link's key. */
  | { kind: "e2e"; meta: PasteView | null; e2e: E2EDescriptor };

/**
 * The first state: handed over by a navigation, from the server's page data (undefined once a
 * share screen has used it: useShareScreen), or loading.
 */
export function initialPasteScreen(
  slug: string,
  page: PastePageData | undefined,
  navState: unknown,
): PasteScreenState {
  const handed = (navState as { paste?: PasteView } | null)?.paste;
  if (handed?.slug === slug && typeof handed.content === "string") {
    return { kind: "ready", paste: handed, html: null };
  }
  if (page) {
    const paste = page.paste ?? null;
    const forThisSlug = paste ? paste.slug === slug : (page.slug ?? slug) === slug;
    if (forThisSlug) {
      if (page.error) return { kind: "error", code: page.error };
      if (paste?.e2e) return { kind: "e2e", meta: paste, e2e: paste.e2e };
      if (paste && page.requires === "password") return { kind: "password", meta: paste };
      if (paste && page.requires === "view") return { kind: "loading", meta: paste };
      // html is null when the share is too large to render on the server: render it here.
      if (paste && typeof paste.content === "string") {
        return { kind: "ready", paste, html: page.html ?? null };
      }
    }
  }
  return { kind: "loading", meta: null };
}

/** The state after a failed fetch: the password prompt, not found or expired, or an error. */
export function pasteScreenForError(
  err: unknown,
  meta: PasteView | null,
  message: string,
): PasteScreenState {
  if (err instanceof ApiError && (err.code === "paste_not_found" || err.code === "paste_expired")) {
    return { kind: "error", code: err.code };
  }
  return lockedScreen(err, meta) ?? { kind: "error", code: "other", message };
}
