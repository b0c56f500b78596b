/**
 * HTTP pieces shared by the WebDAV method handlers: plain-text and XML replies, multistatus
 * building, request body reading with a cap, and the RFC 9110 preconditions (If-Match,
 * If-None-Match, If-Modified-Since, If-Unmodified-Since).
 */
import { type ErrorCode, errorMessage } from "../../shared/errors.ts";
import type { Language } from "../../shared/constants.ts";
import { readCapped } from "../../shared/read_capped.ts";
import { AppError } from "../errors.ts";
import type { FsEntry } from "../fs/fs_entry.ts";
import { escapeXml } from "./webdav_xml.ts";

/** Methods this endpoint answers, for OPTIONS and 405 replies. */
export const DAV_METHODS = [
  "OPTIONS",
  "GET",
  "HEAD",
  "PUT",
  "DELETE",
  "PROPFIND",
  "PROPPATCH",
  "MKCOL",
  "COPY",
  "MOVE",
  "LOCK",
  "UNLOCK",
];

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  412: "Precondition Failed",
  423: "Locked",
  424: "Failed Dependency",
  507: "Insufficient Storage",
};

/** The status line used inside multistatus bodies. */
export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}`.trimEnd();
}

/** A plain-text error reply in the caller's language, like the app's byte routes. */
export function davText(
  status: number,
  code: ErrorCode,
  lang: Language,
  headers: Record<string, string> = {},
): Response {
  return new Response(errorMessage(code, lang), {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Error-Code": code,
      ...headers,
    },
  });
}

const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>\n';
const XML_TYPE = "application/xml; charset=utf-8";

/** An XML reply (a body of DAV: elements, declared once on the root with the D prefix). */
export function davXml(
  status: number,
  root: string,
  inner: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(`${XML_DECL}<D:${root} xmlns:D="DAV:">${inner}</D:${root}>`, {
    status,
    headers: { "Content-Type": XML_TYPE, ...headers },
  });
}

/** A `<D:error>` reply naming a precondition (e.g. `propfind-finite-depth`). */
export function davError(
  status: number,
  condition: string,
  code: ErrorCode,
  href?: string,
): Response {
  const inner = href ? `<D:href>${escapeXml(href)}</D:href>` : "";
  return davXml(status, "error", `<D:${condition}>${inner}</D:${condition}>`, {
    "X-Error-Code": code,
  });
}

/** Bytes of XML gathered before a chunk of a multistatus reply goes out. */
const MULTISTATUS_CHUNK = 64 * 1024;

/**
 * A 207 reply streamed from chunks of `<D:response>` elements. They go out gathered into
 * chunks of about 64 KiB: one write per element would cost a stream step and a socket write
 * per member of a folder.
 */
export function multistatus(chunks: AsyncIterable<string> | Iterable<string>): Response {
  const enc = new TextEncoder();
  async function* body() {
    let buf = `${XML_DECL}<D:multistatus xmlns:D="DAV:">`;
    for await (const c of chunks) {
      buf += c;
      if (buf.length >= MULTISTATUS_CHUNK) {
        yield enc.encode(buf);
        buf = "";
      }
    }
    yield enc.encode(buf + "</D:multistatus>");
  }
  return new Response(ReadableStream.from(body()), {
    status: 207,
    headers: { "Content-Type": XML_TYPE },
  });
}

/** One `<D:response>` with a propstat per status (props are serialised elements). */
export function responseXml(href: string, byStatus: Map<number, string[]>): string {
  let out = `<D:response><D:href>${escapeXml(href)}</D:href>`;
  for (const [status, props] of byStatus) {
    if (props.length === 0) continue;
    out += `<D:propstat><D:prop>${props.join("")}</D:prop>` +
      `<D:status>${statusLine(status)}</D:status></D:propstat>`;
  }
  return out + "</D:response>";
}

const MAX_XML_BODY = 1024 * 1024;

/** Reads a request body as UTF-8 text, up to 1 MiB; throws 413 beyond, 400 if not UTF-8. */
export async function readBodyText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const all = await readCapped(body, MAX_XML_BODY, () => new AppError("payload_too_large", 413));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(all);
  } catch {
    throw new AppError("webdav_xml_invalid", 400);
  }
}

function etagListHas(list: string, etag: string, weak: boolean): boolean {
  const bare = (e: string) => weak ? e.trim().replace(/^W\//, "") : e.trim();
  if (!weak && etag.startsWith("W/")) return false;
  return list.split(",").some((e) => e.trim() !== "" && bare(e) === bare(etag));
}

function seconds(iso: string | null): number | null {
  return iso ? Math.floor(Date.parse(iso) / 1000) : null;
}

/**
 * Evaluates the HTTP preconditions against the current state of the target (RFC 9110 §13.2.2).
 * Returns 304 (reads only), 412, or null to go on.
 */
export function checkPreconditions(
  h: Headers,
  entry: FsEntry | null,
  read: boolean,
): 304 | 412 | null {
  const etag = entry?.etag ?? null;
  const modified = seconds(entry?.modified ?? null);
  const ifMatch = h.get("if-match");
  if (ifMatch) {
    if (!entry) return 412;
    if (ifMatch.trim() !== "*" && !(etag && etagListHas(ifMatch, etag, false))) return 412;
  } else {
    const since = h.get("if-unmodified-since");
    const d = since ? Math.floor(Date.parse(since) / 1000) : NaN;
    if (entry && modified !== null && !Number.isNaN(d) && modified > d) return 412;
  }
  const ifNone = h.get("if-none-match");
  if (ifNone) {
    const hit = ifNone.trim() === "*"
      ? entry !== null
      : etag !== null && etagListHas(ifNone, etag, true);
    if (hit) return read ? 304 : 412;
  } else if (read) {
    const since = h.get("if-modified-since");
    const d = since ? Math.floor(Date.parse(since) / 1000) : NaN;
    if (modified !== null && !Number.isNaN(d) && modified <= d) return 304;
  }
  return null;
}
