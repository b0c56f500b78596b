/** What a page loader (paste_page.ts, file_page.ts) gives the page route (routes/pages.ts). */
import type { ShareAccess } from "../http/offline_cache.ts";

/** What a server-rendered page needs: its status, data for the app and a description. */
export type PageLoad = {
  status: 200 | 404 | 410;
  page: Record<string, unknown>;
  description?: string;
  /** The share shown, when there is one: an open share may be cached for offline reading. */
  share?: ShareAccess;
};
