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
  | { kind: "json"; schema: z.ZodType; alsoText?: boolean }
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
  /** The `data` of the success envelope (JSON routes); any JSON when absent. */
  data?: z.ZodType;
  /** The reply is bytes of this media type (`*\/*`: the stored file's own), not the envelope. */
  bytes?: string;
  /** Errors are plain text with an `X-Error-Code` header instead of the error envelope. */
  plainErrors?: boolean;
  /** Serves a stored object: takes Range and If-None-Match (206, 304, 416). */
  ranges?: boolean;
  /** May answer 302 to the stored object's own URL (a storage that serves it directly). */
  redirect?: boolean;
  /** Statuses this route can answer beyond those its traits imply (openapi_responses.ts). */
  errors?: number[];
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

/** The errors of a route that writes into storage: a conflict, too large, storage failed or full. */
export const STORED = [409, 413, 502, 507];

/** Adds `statuses` to the errors of every route of `routes` that `when` selects. */
export function withErrors(
  routes: RouteDoc[],
  statuses: number[],
  when: (r: RouteDoc) => boolean = () => true,
): RouteDoc[] {
  return routes.map((r) => when(r) ? { ...r, errors: [...statuses, ...(r.errors ?? [])] } : r);
}

/** Both methods of a byte route that answers GET and HEAD alike (plain-text errors). */
export function getHead(
  path: string,
  summary: string,
  auth: RouteAuth,
  extra: RouteExtra = {},
): RouteDoc[] {
  const common = { auth, bytes: "*/*", plainErrors: true, ranges: true, ...extra };
  return [
    { method: "get", path, summary, ...common },
    { method: "head", path, summary: `${summary} (headers only)`, ...common },
  ];
}

/** The same route under the /s3 and /url prefixes (uploads from a file or from a URL). */
export function s3AndUrl(
  suffix: string,
  summary: string,
  body: z.ZodType,
  extra: RouteExtra = {},
): RouteDoc[] {
  return ["s3", "url"].map((p) => ({
    method: "post" as const,
    path: `/${p}/${suffix}`,
    summary: `${summary} (${p === "s3" ? "file" : "from a URL"})`,
    auth: FILE,
    body: json(body),
    ...extra,
  }));
}
