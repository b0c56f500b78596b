/**
 * WebDAV at `/dav` (outside `/api`, so it authenticates on its own): HTTP Basic with the admin
 * username and password, or an API key as both user and password (an `ApiKey` or `Bearer`
 * header works too). Reading needs WEBDAV_READ, writing WEBDAV_MANAGE; WebdavService does the
 * rest. Errors are plain text, as on every byte route.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import { assertAuthorized, plainErrors, requestMemo } from "../http/middleware.ts";
import { AppError } from "../errors.ts";
import type { Auth } from "../services/auth.ts";
import type { Services } from "../container.ts";
import { Permission } from "../../shared/permissions.ts";
import { errorMessage } from "../../shared/errors.ts";

const READ_METHODS = new Set(["OPTIONS", "GET", "HEAD", "PROPFIND"]);
const CHALLENGE = 'Basic realm="Cubby", charset="UTF-8"';

function challenge(
  c: Context<AppEnv>,
  code: "unauthorized" | "invalid_credentials" | "api_key_invalid" | "session_expired",
) {
  return new Response(errorMessage(code, c.get("lang")), {
    status: 401,
    headers: {
      "WWW-Authenticate": CHALLENGE,
      "Content-Type": "text/plain; charset=utf-8",
      "X-Error-Code": code,
    },
  });
}

/** The caller from the Authorization header, or the 401 reply to send. Throws 429. */
async function authenticate(c: Context<AppEnv>): Promise<Auth | Response> {
  const auth = c.get("services").auth;
  const header = c.req.header("authorization") ?? "";
  const basic = /^basic\s+(.+)$/i.exec(header.trim());
  if (!basic) {
    const found = await auth.authenticate(header || undefined, c.get("clientIp"));
    if (found.type !== "none") return found;
    if (found.failure === "too_many_requests") {
      throw new AppError("too_many_requests", 429, { seconds: found.retryAfter ?? 1 });
    }
    return challenge(c, found.failure ?? "unauthorized");
  }
  let user: string;
  let pass: string;
  try {
    const text = new TextDecoder().decode(
      Uint8Array.from(atob(basic[1]), (ch) => ch.charCodeAt(0)),
    );
    const colon = text.indexOf(":");
    if (colon < 0) return challenge(c, "invalid_credentials");
    [user, pass] = [text.slice(0, colon), text.slice(colon + 1)];
  } catch {
    return challenge(c, "invalid_credentials");
  }
  try {
    return await auth.authenticateBasic(user, pass, c.get("clientIp"));
  } catch (err) {
    if (err instanceof AppError && err.status === 401) return challenge(c, "invalid_credentials");
    throw err;
  }
}

/** The `/dav` routes: Basic auth and permissions here, the WebDAV handler from the container. */
export function webdavRoutes(services: Services) {
  const { webdav } = services;
  const app = new Hono<AppEnv>();
  app.use("*", plainErrors);
  app.use("*", requestMemo);
  app.all("*", async (c) => {
    const auth = await authenticate(c);
    if (auth instanceof Response) return auth;
    // A fragment never belongs in a request target; acting on the rest could hit a collection.
    if (c.req.url.includes("#")) throw new AppError("storage_path_invalid", 400);
    const method = c.req.method.toUpperCase();
    assertAuthorized(
      auth,
      READ_METHODS.has(method) ? Permission.WEBDAV_READ : Permission.WEBDAV_MANAGE,
    );
    return await webdav.handle({
      method,
      url: new URL(c.req.url),
      headers: c.req.raw.headers,
      body: c.req.raw.body,
      auth,
      lang: c.get("lang"),
    });
  });
  return app;
}
