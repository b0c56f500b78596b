/** Cross-cutting middleware: request id, language, auth resolution, guards, security headers. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./types.ts";
import { AppError } from "../errors.ts";
import { FALLBACK_LANGUAGE, type Language } from "../../shared/constants.ts";
import { hasMountAccess, hasPermission } from "../../shared/permissions.ts";
import { ANONYMOUS, type Auth } from "../services/auth.ts";
import type { Services } from "../container.ts";
import { peerAddress, TrustedProxies } from "../lib/client_address.ts";
import { withRequestMemo } from "../kv/request_memo.ts";

/** Headers every response carries (see requestContext). */
const SECURITY_HEADERS: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "SAMEORIGIN"],
];

/** Picks zh-CN (default) or en-US from the `language` cookie, then Accept-Language. */
export function pickLanguage(
  cookie: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  const fromCookie = cookie?.match(/(?:^|;\s*)language=([^;]+)/)?.[1];
  if (fromCookie === "en-US" || fromCookie === "zh-CN") return fromCookie;
  const first = acceptLanguage?.split(",")[0]?.trim().toLowerCase() ?? "";
  if (first.startsWith("en")) return "en-US";
  return FALLBACK_LANGUAGE;
}

/**
 * The first middleware of every request, in one function (each level of Hono's middleware chain
 * costs a closure and a promise): sets services, requestId, lang, plainErrors and clientIp, and
 * prepares X-Request-Id and the security headers before the handler runs, so that responses
 * built through the context (`c.json`, `c.html`, `c.body`...) are created with them; adding
 * headers to a finished response makes Deno rebuild its header list. A handler that returns a
 * `Response` of its own (it lacks the prepared X-Request-Id) gets the security headers it lacks
 * afterwards (an X-Frame-Options it set is kept).
 */
export function requestContext(
  services: Services,
  log: (msg: string) => void = console.error,
): MiddlewareHandler<AppEnv> {
  const clientAddress = addressResolver(new TrustedProxies(services.config.trustProxy), log);
  return async (c, next) => {
    const requestId = crypto.randomUUID();
    c.set("services", services);
    c.set("requestId", requestId);
    c.set("lang", pickLanguage(c.req.header("cookie"), c.req.header("accept-language")));
    c.set("plainErrors", false);
    c.set("clientIp", clientAddress(c));
    c.header("X-Request-Id", requestId);
    for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
    await next();
    const headers = c.res.headers;
    if (headers.has("X-Request-Id")) return; // made with the prepared headers
    for (const [name, value] of SECURITY_HEADERS) {
      if (!headers.has(name)) c.header(name, value);
    }
  };
}

/**
 * The client address of a request (see client_address.ts). Without X-Forwarded-For the peer is
 * the client, with no parsing, so the common request costs a header lookup or two. Proxied
 * requests from a peer TRUST_PROXY does not trust are logged once per process.
 */
function addressResolver(trusted: TrustedProxies, log: (msg: string) => void) {
  let warned = false;
  return (c: Context<AppEnv>): string => {
    // deno-lint-ignore no-explicit-any
    const peer = ((c.env as any)?.remoteAddr as Deno.NetAddr | undefined)?.hostname ?? "unknown";
    const forwardedFor = c.req.header("x-forwarded-for");
    if (forwardedFor === undefined) {
      if (!warned && c.req.header("forwarded") !== undefined) warned = warnUntrusted(peer, log);
      return peerAddress(peer);
    }
    const { address, untrusted } = trusted.resolve(peer, forwardedFor);
    if (untrusted && !warned) warned = warnUntrusted(peer, log);
    return address;
  };
}

function warnUntrusted(peer: string, log: (msg: string) => void): true {
  log(
    `Proxied requests arrive from ${peer}, which TRUST_PROXY does not trust; rate limits see ` +
      `the proxy's address. Set TRUST_PROXY to the proxy's address or range (see README).`,
  );
  return true;
}

/** Resolves the Authorization header into c.var.auth (anonymous without one, at no cost). */
export const resolveAuth: MiddlewareHandler<AppEnv> = (c, next) => {
  const header = c.req.header("authorization");
  if (!header) {
    c.set("auth", ANONYMOUS);
    return next();
  }
  return c.get("services").auth.authenticate(header, c.get("clientIp")).then((auth) => {
    c.set("auth", auth);
    return next();
  });
};

/** Throws the right 401 (or 429 after too many wrong keys) for a caller not logged in. */
export function assertLoggedIn(auth: Auth): asserts auth is Exclude<Auth, { type: "none" }> {
  if (auth.type !== "none") return;
  if (auth.failure === "too_many_requests") {
    throw new AppError("too_many_requests", 429, { seconds: auth.retryAfter ?? 1 });
  }
  throw new AppError(auth.failure ?? "unauthorized", 401);
}

/** Admin session required. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const auth = c.get("auth");
  assertLoggedIn(auth);
  if (auth.type !== "admin") throw new AppError("forbidden", 403);
  await next();
};

/** Any logged-in caller (admin or valid key). */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  assertLoggedIn(c.get("auth"));
  await next();
};

/** Admin, or an API key holding every bit of `bits`. */
export function requirePermission(bits: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertAuthorized(c.get("auth"), bits);
    await next();
  };
}

/** Admin, or an API key holding any mount bit. */
export const requireMountAccess: MiddlewareHandler<AppEnv> = async (c, next) => {
  assertMountAccess(c.get("auth"));
  await next();
};

/** Throws 401/403 unless the caller is admin or a key holding any mount bit. */
export function assertMountAccess(auth: Auth): void {
  assertLoggedIn(auth);
  if (auth.type === "apikey" && !hasMountAccess(auth.permissions)) {
    throw new AppError("api_key_permission_denied", 403);
  }
}

/** Throws 401/403 unless the caller is admin or a key with every bit of `bits`. */
export function assertAuthorized(auth: Auth, bits: number): void {
  assertLoggedIn(auth);
  if (auth.type === "apikey" && !hasPermission(auth.permissions, bits)) {
    throw new AppError("api_key_permission_denied", 403);
  }
}

/**
 * The byte routes under /api (Hono paths): raw pastes, file view and download, mount downloads,
 * proxy links, signed local-storage URLs and the URL proxy. app.ts marks them before any other
 * /api middleware runs, so that every error they answer is plain text, an auth or
 * Idempotency-Key error included.
 */
export const BYTE_ROUTES = [
  "/raw/:slug",
  "/file-view/:slug",
  "/file-download/:slug",
  "/fs/download",
  "/p/*",
  "/storage/local/*",
  "/url/proxy",
];

/** Marks a byte route: errors become plain text with the right status. */
export const plainErrors: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("plainErrors", true);
  await next();
};

/**
 * Shares the mount list and storage config records among the reads of one request
 * (kv/request_memo.ts): the explorer and WebDAV read them for the target, its parent and the
 * write alike.
 */
export const requestMemo: MiddlewareHandler<AppEnv> = (_c, next) => withRequestMemo(next);
