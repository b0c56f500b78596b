/**
 * The caches of server rendering. First of all app documents (the server-rendered share pages and
 * the shell of every other page), kept as
 * UTF-8 bytes by everything they are made from, so that a page asked for again is neither rendered
 * nor encoded again.
 *
 * The key holds the inputs themselves, not a version someone must remember to bump: the page
 * language, the URL (path and query), the status, the site config (by the content of the settings
 * reading it came from, see pageSite in ssr/app_page.ts) and the page data: what the loader read
 * from KV for this request, named by the loader's key (a paste page: the record's id, the
 * versionstamp it was read at and its view count, see paste_page.ts) or else serialised in full.
 * A shell, which the browser renders, is made from the language, the settings and its title only.
 * So an edit, a delete, an expiry, a counted view or a settings change gives another key (or no
 * page at all) on the very next request. What is not in the key is constant in a process: the
 * code, the translations and the build.
 *
 * Two values change on every request: the CSP nonce of the document's scripts, and the site
 * config's `lastUpdated` (the time the document was made, for the browser's copy), which does not
 * reach the markup. The document is rendered with a mark in their places (NONCE_HOLE, and the one
 * withTimeHole puts into the data JSON) and kept in pieces around them; `fill` writes a request's
 * values between the pieces. The marks hold a random part drawn at start, so no content can
 * contain one.
 *
 * Page requests carry no credentials (page_load.ts), so nothing here depends on who asks.
 *
 * Every cache of server rendering lives here, under one rule (RenderCache): the least recently
 * used value goes first once a cache holds more values or more bytes than its bounds, and a value
 * larger than its per-value bound is made every time instead of kept, so a few huge pages cannot
 * push out the rest. Every value is named by what it is made from, so a hit is always current and
 * nothing is dropped by hand when data changes. None holds state shared between instances: each
 * is a cache of work, correct in any process whatever the others do.
 */
import { randomToken } from "../lib/crypto.ts";
import type { SiteConfig } from "../../shared/schemas/settings.ts";

const MARK = randomToken(12);
/** Stands for the request's CSP nonce in a document given to documentFor. */
export const NONCE_HOLE = `cubby-nonce-${MARK}`;
/** Stands for the request's time in the data JSON (see withTimeHole). */
const TIME_HOLE = `cubby-time-${MARK}`;
const HOLES = new RegExp(`(${NONCE_HOLE}|${TIME_HOLE})`);

/** The `lastUpdated` to render a kept document's data with (a value no clock gives). */
export const TIME_SENTINEL = -7.3e-300;
const SENTINEL_TEXT = `"lastUpdated":${JSON.stringify(TIME_SENTINEL)}`;

/** Data JSON made with `lastUpdated: TIME_SENTINEL`, with the request's time left open. */
export function withTimeHole(json: string): string {
  const at = json.indexOf(SENTINEL_TEXT);
  if (at < 0 || json.indexOf(SENTINEL_TEXT, at + 1) >= 0) {
    throw new Error("page data must hold lastUpdated exactly once to be cached");
  }
  return `${json.slice(0, at)}"lastUpdated":${TIME_HOLE}${json.slice(at + SENTINEL_TEXT.length)}`;
}

const encoder = new TextEncoder();

/** A document as UTF-8 pieces around its holes, filled per request. */
export class DocumentTemplate {
  private pieces: Uint8Array[] = [];
  /** After each piece but the last: true for the time, false for the nonce. */
  private holes: boolean[] = [];
  /** Bytes of the pieces. */
  readonly size: number;

  /** Splits a document rendered with NONCE_HOLE and a withTimeHole data JSON. */
  constructor(doc: string) {
    const parts = doc.split(HOLES);
    let size = 0;
    for (let i = 0; i < parts.length; i++) {
      if (i % 2) this.holes.push(parts[i] === TIME_HOLE);
      else {
        const piece = encoder.encode(parts[i]);
        this.pieces.push(piece);
        size += piece.length;
      }
    }
    if (this.holes.filter((time) => time).length !== 1) {
      throw new Error("a kept document must have one place for lastUpdated");
    }
    this.size = size;
  }

  /**
   * The document with this request's nonce and time. The nonce must be ASCII (a CSP nonce is
   * base64 or hex), and so is a number's text: both are written a character a byte, with no
   * encoder call.
   */
  fill(nonce: string, lastUpdated: number): Uint8Array<ArrayBuffer> {
    const time = String(lastUpdated);
    let size = this.size;
    for (const isTime of this.holes) size += isTime ? time.length : nonce.length;
    const out = new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < this.pieces.length; i++) {
      out.set(this.pieces[i], at);
      at += this.pieces[i].length;
      if (i < this.holes.length) {
        const value = this.holes[i] ? time : nonce;
        for (let j = 0; j < value.length; j++) out[at + j] = value.charCodeAt(j);
        at += value.length;
      }
    }
    return out;
  }
}

/** What every document embeds of the site settings, made once per settings reading. */
export type PageSite = {
  site: SiteConfig;
  siteHtml: { footer: string; announcement: string };
  /** Different for different settings: part of the documents' key. */
  version: number;
};

/** The bounds of one cache: values, their total bytes, and the largest value kept. */
export type RenderCacheBounds = { entries: number; bytes: number; entryBytes: number };

/** A least-recently-used cache bounded by count and bytes (see the module comment). */
export class RenderCache<K, V> {
  private values = new Map<K, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    readonly bounds: RenderCacheBounds,
    private readonly sizeOf: (value: V, key: K) => number,
  ) {}

  /** Number of values kept. */
  get size(): number {
    return this.values.size;
  }

  /** Drops every value (tests, and a restore that replaces all data). */
  clear(): void {
    this.values.clear();
    this.total = 0;
  }

  /** The value kept for `key`, now the most recently used; undefined when there is none. */
  get(key: K): V | undefined {
    const hit = this.values.get(key);
    if (!hit) return undefined;
    this.values.delete(key);
    this.values.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` for `key` unless it is larger than a value may be; returns it. */
  set(key: K, value: V): V {
    const bytes = this.sizeOf(value, key);
    const old = this.values.get(key);
    if (old) {
      this.values.delete(key);
      this.total -= old.bytes;
    }
    if (bytes > this.bounds.entryBytes) return value;
    this.values.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldKey, entry] of this.values) {
      if (this.values.size <= this.bounds.entries && this.total <= this.bounds.bytes) break;
      this.values.delete(oldKey);
      this.total -= entry.bytes;
    }
    return value;
  }

  /** The value kept for `key`, else the one `make` returns, kept. */
  getOrMake(key: K, make: () => V): V {
    const hit = this.get(key);
    return hit !== undefined ? hit : this.set(key, make());
  }
}

/** Bytes of a string as UTF-16 in memory. */
const chars = (s: string) => s.length * 2;
const MiB = 1024 * 1024;

/**
 * Documents (page_cache.ts): a share page or an app shell as UTF-8 pieces around the nonce and
 * the time, named by the language, the site settings' version, the URL, the status and the page
 * data (or the loader's name for it).
 */
export const documents = new RenderCache<string, DocumentTemplate>(
  { entries: 500, bytes: 24 * MiB, entryBytes: MiB },
  (doc, key) => chars(key) + doc.size,
);

/**
 * Sanitised Markdown and its summary: a paste's, named by its id and update time and used only
 * for the very same text (compared in full), and the site's footer and announcement, named by
 * their text.
 */
export const markdown = new RenderCache<
  string,
  { source: string; html: string | null; summary: string }
>(
  { entries: 100, bytes: 16 * MiB, entryBytes: 2 * MiB },
  (v, key) => chars(key) + chars(v.source) + chars(v.html ?? "") + chars(v.summary),
);

/**
 * What every document embeds of the site settings, by the settings reading it was made from (the
 * settings service hands out the same object while the settings are unchanged).
 */
export const sites = new RenderCache<object, PageSite>(
  { entries: 4, bytes: 4 * MiB, entryBytes: MiB },
  (v) => chars(JSON.stringify(v)),
);

/**
 * A number per distinct content of the site settings: part of every document's key, so that
 * unchanged settings read again keep their documents.
 */
export const siteVersions = new RenderCache<string, number>(
  { entries: 16, bytes: 4 * MiB, entryBytes: MiB },
  (_v, key) => chars(key),
);

/** Translated page titles and descriptions, by language and text key (a fixed set). */
export const titles = new RenderCache<string, string>(
  { entries: 200, bytes: MiB, entryBytes: 64 * 1024 },
  (v, key) => chars(key) + chars(v),
);

/** The document for `key` in `cache`, else made from `render`'s text (with NONCE_HOLE and a
 * withTimeHole data JSON) and kept. */
export function documentFor(
  cache: RenderCache<string, DocumentTemplate>,
  key: string,
  render: () => string,
): DocumentTemplate {
  return cache.getOrMake(key, () => new DocumentTemplate(render()));
}
