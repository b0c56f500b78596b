/** What a page loader (paste_page.ts, file_page.ts) gives the page entry (app_page.ts). */
import type { ShareAccess } from "../http/offline_cache.ts";

/** What a server-rendered page needs: its status, data for the app and a description. */
export type PageLoad = {
  status: 200 | 404 | 410;
  page: Record<string, unknown>;
  description?: string;
  /** The share shown, when there is one: an open share may be cached for offline reading. */
  share?: ShareAccess;
  /**
   * What `page` and `description` are made from, when the loader can name it more cheaply than
   * the page data itself (the page cache's key then holds this instead of the data serialised):
   * equal keys must mean equal data. Without it the key holds the data in full.
   */
  key?: string;
};
