/**
 * WebDAV request paths: `/dav/<virtual path>` percent-decoded segment by segment into the
 * explorer's virtual path, and back into hrefs. Anything ambiguous is refused with 400 rather
 * than guessed: `.`/`..` segments, backslashes, NUL, an encoded `/` inside a segment, and
 * percent-encoding that is not UTF-8.
 */
import { AppError } from "../errors.ts";

/** Where WebDAV is mounted. */
export const DAV_PREFIX = "/dav";

/** A request target: the normalised virtual path, and whether the URL ended with `/`. */
export type DavPath = { path: string; slash: boolean };

function invalid(path: string): AppError {
  return new AppError("storage_path_invalid", 400, { path });
}

/** Decodes a raw URL pathname under `/dav` into a virtual path; throws 400 when invalid. */
export function parseDavPath(pathname: string): DavPath {
  if (pathname !== DAV_PREFIX && !pathname.startsWith(DAV_PREFIX + "/")) throw invalid(pathname);
  const rest = pathname.slice(DAV_PREFIX.length);
  const segments: string[] = [];
  for (const raw of rest.split("/")) {
    if (raw === "") continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      throw invalid(pathname);
    }
    if (seg === "." || seg === ".." || /[\/\\\0]/.test(seg)) throw invalid(pathname);
    segments.push(seg);
  }
  return { path: "/" + segments.join("/"), slash: rest.endsWith("/") || segments.length === 0 };
}

/**
 * Resolves a Destination header or an If header resource tag (an absolute URL or an absolute
 * path) to a virtual path. The authority is not compared: behind a reverse proxy the client's
 * host often differs from ours. Throws 400 when it is not under `/dav`.
 */
export function parseDavUrl(value: string, base: URL): DavPath {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw invalid(value);
  }
  return parseDavPath(url.pathname);
}

/** The href of a virtual path: `/dav` plus each segment percent-encoded, `/` after folders. */
export function davHref(path: string, collection: boolean): string {
  const enc = path.split("/").filter(Boolean).map((s) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (ch) => "%" + ch.charCodeAt(0).toString(16))
  ).join("/");
  const href = `${DAV_PREFIX}/${enc}`;
  return collection ? (href.endsWith("/") ? href : href + "/") : href;
}

/** The parent of a virtual path ("/" for the root). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** The last segment of a virtual path ("" for the root). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** True when `path` is `base` or below it (separator-aware). */
export function isSameOrBelow(path: string, base: string): boolean {
  return base === "/" || path === base || path.startsWith(base + "/");
}
