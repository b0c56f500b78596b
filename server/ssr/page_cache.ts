/**
 * The rendered parts of server-rendered pages (the root markup and the embedded data as JSON),
 * kept by everything they are made from, so that a page asked for again is not rendered again.
 *
 * The key holds the inputs themselves, not a version someone must remember to bump: the page
 * language, the URL (path and query), the site config (by the identity of the settings reading
 * it came from, see pageSite in routes/pages.ts) and the page data serialised in full. The page
 * data is what the loader read from KV for this request (the record with its content, view
 * count, expiry and the sanitised HTML), so an edit, a delete, an expiry, a counted view or a
 * settings change gives another key (or no page at all) on the very next request. What is not
 * in the key is constant in a process: the code, the translations and the build.
 *
 * The one input that changes on every request, the site config's `lastUpdated` (the time the
 * document was made, for the browser's copy), does not reach the markup; the JSON is kept in two
 * parts around it and joined with the current time.
 *
 * Page requests carry no credentials (page_load.ts), so nothing here depends on who asks.
 */

/** The rendered parts of one page. */
export type RenderedParts = { html: string; dataJson: string };

type Entry = { html: string; jsonHead: string; jsonTail: string; bytes: number };

/** Entries kept (least recently used dropped first), and their total size in UTF-16 units. */
const MAX_ENTRIES = 500;
const MAX_TOTAL = 16 * 1024 * 1024;
/** Larger pages are rendered every time, so that a few huge ones cannot evict the rest. */
const MAX_ENTRY = 512 * 1024;

/** Stands in for `lastUpdated` while the JSON is cached (a value no clock gives). */
const SENTINEL = -7.3e-300;
const SENTINEL_TEXT = `"lastUpdated":${JSON.stringify(SENTINEL)}`;

/** A render cache of pages; one per process (see pageCache). */
export class PageCache {
  private entries = new Map<string, Entry>();
  private total = 0;

  /** Number of pages kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every page (tests). */
  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /**
   * The page's markup and data JSON: from the cache when `key` was rendered before, else from
   * `render`, which gets `lastUpdated` to embed and must put it in the JSON exactly once as
   * `"lastUpdated":<number>`.
   */
  get(
    key: string,
    lastUpdated: number,
    render: (lastUpdated: number) => RenderedParts,
  ): RenderedParts {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key); // re-inserted: most recently used last
      this.entries.set(key, hit);
      return {
        html: hit.html,
        dataJson: `${hit.jsonHead}"lastUpdated":${lastUpdated}${hit.jsonTail}`,
      };
    }
    const parts = render(SENTINEL);
    const at = parts.dataJson.indexOf(SENTINEL_TEXT);
    const fresh = {
      html: parts.html,
      dataJson: parts.dataJson.replace(SENTINEL_TEXT, `"lastUpdated":${lastUpdated}`),
    };
    if (at < 0 || parts.dataJson.indexOf(SENTINEL_TEXT, at + 1) >= 0) {
      throw new Error("page data must hold lastUpdated exactly once to be cached");
    }
    const entry: Entry = {
      html: parts.html,
      jsonHead: parts.dataJson.slice(0, at),
      jsonTail: parts.dataJson.slice(at + SENTINEL_TEXT.length),
      bytes: key.length + parts.html.length + parts.dataJson.length,
    };
    if (entry.bytes <= MAX_ENTRY) this.put(key, entry);
    return fresh;
  }

  private put(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.total += entry.bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.total <= MAX_TOTAL) break;
      this.entries.delete(oldKey);
      this.total -= old.bytes;
    }
  }
}

/** The process's page cache. */
export const pageCache = new PageCache();
