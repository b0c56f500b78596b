/**
 * Serves the built client (dist/): hashed assets forever-cached, the rest revalidated. A path
 * that names a file (under /assets/ or /icons/, or a root path with an extension) is either a
 * real file of dist/ or a plain 404: never the HTML shell, which would make a missing script
 * or icon look like a valid reply. Every other path falls through to the app pages.
 */
import { Hono } from "hono";
import { extname, join, normalize } from "node:path";
import type { AppEnv } from "../http/types.ts";
import { AppError } from "../errors.ts";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".map": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  // The command-line client: bundled JavaScript behind a .ts name (scripts/build_cli.ts).
  ".ts": "text/javascript; charset=utf-8",
};

/** Files at the root of dist/ that are served as-is (the manifest has its own route). */
const ROOT_FILES = new Set(["/sw.js", "/sw.js.map", "/favicon.svg", "/robots.txt", "/cli.ts"]);
/** A root path with an extension, like /foo.txt: a file request, not an app route. */
const ROOT_FILE_PATTERN = /^\/[^/]+\.[^/]+$/;

function notFound(): Response {
  return new Response("Not found", {
    status: 404,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export function staticRoutes(distDir: string) {
  const app = new Hono<AppEnv>();
  app.get("*", async (c, next) => {
    const path = c.req.path;
    const isAsset = path.startsWith("/assets/") || path.startsWith("/icons/");
    if (!isAsset && !ROOT_FILES.has(path)) {
      return ROOT_FILE_PATTERN.test(path) ? notFound() : next();
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      c.set("plainErrors", true);
      throw new AppError("url_malformed", 400);
    }
    const rel = normalize(decoded).replace(/^\/+/, "");
    if (rel.startsWith("..") || rel.includes("\0")) return notFound();
    let file: Deno.FsFile;
    try {
      file = await Deno.open(join(distDir, rel), { read: true });
    } catch {
      return notFound();
    }
    const stat = await file.stat();
    if (!stat.isFile) {
      file.close();
      return notFound();
    }
    const extra: Record<string, string> = path === "/sw.js"
      ? { "Service-Worker-Allowed": "/" }
      : {};
    return new Response(file.readable, {
      headers: {
        "Content-Type": TYPES[extname(rel)] ?? "application/octet-stream",
        "Content-Length": String(stat.size),
        "Cache-Control": path.startsWith("/assets/")
          ? "public, max-age=31536000, immutable"
          : "no-cache",
        "X-Content-Type-Options": "nosniff",
        ...extra,
      },
    });
  });
  return app;
}
