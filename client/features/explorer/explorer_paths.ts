/**
 * Paths of the mount explorer: the virtual path (`/docs/a b/c.txt`) and its URL
 * (`/mount-explorer/docs/a%20b/c.txt`), breadcrumbs, the key user's base-path redirect and the
 * "copying a folder into itself" check of docs/PRODUCT.md §5.4. Pure, so safe while rendering.
 */
import { isPathWithinBase, normalizePath } from "../../../shared/permissions.ts";

export const EXPLORER_ROOT = "/mount-explorer";

/** The explorer URL of a virtual path, optionally opening `preview` (a file name in it). */
export function explorerHref(path: string, preview?: string | null): string {
  const segments = path.split("/").filter(Boolean).map(encodeURIComponent);
  const base = segments.length ? `${EXPLORER_ROOT}/${segments.join("/")}` : EXPLORER_ROOT;
  return preview ? `${base}?preview=${encodeURIComponent(preview)}` : base;
}

/**
 * The virtual path of an explorer URL's pathname; null when it is not an explorer URL or holds
 * something a path may not (`..`, backslashes, NUL, broken escapes).
 */
export function pathFromPathname(pathname: string): string | null {
  if (pathname !== EXPLORER_ROOT && !pathname.startsWith(EXPLORER_ROOT + "/")) return null;
  const rest = pathname.slice(EXPLORER_ROOT.length);
  let decoded: string[];
  try {
    decoded = rest.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (decoded.some((s) => s.includes("/"))) return null;
  return normalizePath("/" + decoded.join("/"));
}

/** The last segment of a path ("" for the root). */
export function nameOf(path: string): string {
  return path.split("/").filter(Boolean).pop() ?? "";
}

/** The folder holding a path ("/" for the root and its children). */
export function parentOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  parts.pop();
  return "/" + parts.join("/");
}

/** A child path of a folder. */
export function joinPath(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

export type Crumb = { name: string; path: string };

/** The breadcrumb trail of a path, root first (the root's name is ""). */
export function crumbsOf(path: string): Crumb[] {
  const parts = path.split("/").filter(Boolean);
  return [
    { name: "", path: "/" },
    ...parts.map((name, i) => ({
      name,
      path: "/" + parts.slice(0, i + 1).join("/"),
    })),
  ];
}

/**
 * Where a key user must go instead of `path` (docs/PRODUCT.md §2.2): their base path when `path`
 * lies outside it, else null. The admin (base "/") is never redirected.
 */
export function baseRedirect(path: string, basePath: string): string | null {
  const base = normalizePath(basePath) ?? "/";
  return isPathWithinBase(path, base) ? null : base;
}

/**
 * The folders among `sources` that `targetDir` equals or lies inside (docs/PRODUCT.md §5.4
 * warning).
 */
export function foldersCopiedIntoThemselves(
  sources: { path: string; type: "file" | "directory" }[],
  targetDir: string,
): string[] {
  return sources.filter((s) => s.type === "directory" && isPathWithinBase(targetDir, s.path))
    .map((s) => s.path);
}

/** The target path of each source copied into `targetDir`. */
export function copyTargets(sources: { path: string }[], targetDir: string) {
  return sources.map((s) => ({
    sourcePath: s.path,
    targetPath: joinPath(targetDir, nameOf(s.path)),
  }));
}

/** A file or folder name the server accepts: not empty, no slashes, not `.`/`..`. */
export function isValidName(name: string): boolean {
  const n = name.trim();
  return n !== "" && n !== "." && n !== ".." && !/[\/\\\0]/.test(n) && n.length <= 255;
}
