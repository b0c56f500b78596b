/** Types and helpers of the OpenAPI route tables (openapi_routes*.ts). */
import { z } from "zod";

/**
 * Who may call a route: `public` anyone; `optional` anyone, and a login changes the answer;
 * `login` any admin or key; `admin` the admin session only; `key:<BITS>` the admin or a key
 * holding those permission bits; `mount` the admin or a key with any mount bit; `signed` a
 * signed URL (query `sig`/`exp`) instead of a login.
 */
export type RouteAuth = "public" | "optional" | "login" | "admin" | "mount" | "signed" | string;

/** The body a route reads. */
export type RouteBody =
  | { kind: "json"; schema: z.ZodType }
  | { kind: "multipart"; schema: z.ZodType; file: string }
  | { kind: "binary" }
  | { kind: "backup" };

export type RouteDoc = {
  method: "get" | "post" | "put" | "delete" | "head";
  /** Hono's path under /api (`:param`, `*` for the rest of a path). */
  path: string;
  summary: string;
  auth: RouteAuth;
  query?: z.ZodType;
  body?: RouteBody;
  /** Success status; 200 when absent. */
  status?: number;
  /** The reply is bytes (or plain text), not the JSON envelope. */
  bytes?: boolean;
};

type RouteExtra = Omit<RouteDoc, "method" | "path" | "summary" | "auth">;

/** One route of a table: method, Hono path, summary, who may call it, and what it reads. */
function route(method: RouteDoc["method"]) {
  return (path: string, summary: string, auth: RouteAuth, extra: RouteExtra = {}): RouteDoc => ({
    method,
    path,
    summary,
    auth,
    ...extra,
  });
}
/** A GET route of a table. */
export const get = route("get");
/** A POST route of a table. */
export const post = route("post");
/** A PUT route of a table. */
export const put = route("put");
/** A DELETE route of a table. */
export const del = route("delete");

/** A JSON request body validated by `schema`. */
export const json = (schema: z.ZodType): RouteBody => ({ kind: "json", schema });
/** A settings save: key → value; each value is checked against the settings metadata table. */
export const SettingsBody = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export const TEXT = "key:TEXT";
export const FILE = "key:FILE_SHARE";

/** Both methods of a route that answers GET and HEAD alike. */
export function getHead(
  path: string,
  summary: string,
  auth: RouteAuth,
  query?: z.ZodType,
): RouteDoc[] {
  return [
    { method: "get", path, summary, auth, query, bytes: true },
    { method: "head", path, summary: `${summary} (headers only)`, auth, query, bytes: true },
  ];
}

/** The same route under the /s3 and /url prefixes (uploads from a file or from a URL). */
export function s3AndUrl(
  suffix: string,
  summary: string,
  body: z.ZodType,
  status = 200,
): RouteDoc[] {
  return ["s3", "url"].map((p) => ({
    method: "post" as const,
    path: `/${p}/${suffix}`,
    summary: `${summary} (${p === "s3" ? "file" : "from a URL"})`,
    auth: FILE,
    body: json(body),
    status,
  }));
}
