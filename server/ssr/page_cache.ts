/**
 * App documents (the server-rendered share pages and the shell of every other page), kept as
 * UTF-8 bytes by everything they are made from, so that a page asked for again is neither rendered
 * nor encoded again.
 *
 * The key holds the inputs themselves, not a version someone must remember to bump: the page
 * language, the URL (path and query), the status, the site config (by the content of the settings
 * reading it came from, see pageSite in routes/pages.ts) and the page data: what the loader read
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
 */
import { randomToken } from "../lib/crypto.ts";

const MARK = randomToken(12);
/** Stands for the request's CSP nonce in a document given to PageCache. */
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

/** Entries kept (least recently used dropped first), and their total size in bytes. */
const MAX_ENTRIES = 500;
const MAX_TOTAL = 24 * 1024 * 1024;
/** Larger documents are rendered every time, so that a few huge ones cannot evict the rest. */
const MAX_ENTRY = 1024 * 1024;

type Entry = { template: DocumentTemplate; bytes: number };

/** A render cache of documents; one per process (see pageCache). */
export class PageCache {
  private entries = new Map<string, Entry>();
  private total = 0;

  /** Number of documents kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every document (tests). */
  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /**
   * The document for `key`: kept from an earlier request, else made by `render`, which must use
   * NONCE_HOLE for the nonce and withTimeHole for the data JSON.
   */
  get(key: string, render: () => string): DocumentTemplate {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key); // re-inserted: most recently used last
      this.entries.set(key, hit);
      return hit.template;
    }
    const template = new DocumentTemplate(render());
    const bytes = key.length * 2 + template.size;
    if (bytes <= MAX_ENTRY) this.put(key, { template, bytes });
    return template;
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

/** The process's document cache. */
export const pageCache = new PageCache();
