/**
 * The Idempotency-Key middleware (README "Idempotent writes"). Any write under /api that carries
 * the header runs at most once per principal and key: the key is reserved atomically before the
 * handler runs, a successful reply is kept for 25 h and a repeat gets it back with
 * `Idempotent-Replayed: true`. A repeat while the first request is still running gets 409
 * `idempotency_in_progress`; the same key on a different request gets 422
 * `idempotency_key_reused`. A failed request (any non-2xx) releases the key, because it changed
 * nothing, so a retry runs again. Keys are scoped to the caller: the admin, one API key, or an
 * anonymous client address, so nobody can read another principal's result.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./types.ts";
import { AppError } from "../errors.ts";
import { sha256Hex } from "../services/idempotency.ts";
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isValidIdempotencyKey,
} from "../../shared/idempotency.ts";

/** The methods the middleware is registered for (app.ts): reads never pass through it. */
export const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"];
/** Login and logout never keep their reply: a session token must not be stored or replayed. */
const EXCLUDED_PATHS = new Set(["/api/admin/login", "/api/admin/logout"]);
/** Bodies of these types (up to HASHED_BODY_MAX) are part of the request fingerprint. */
const HASHED_TYPES = /^(application\/json|application\/x-www-form-urlencoded|text\/[\w.+-]+|)$/;
const HASHED_BODY_MAX = 32 * 1024 * 1024;
/**
 * Routes whose body is a file streamed to storage, whatever its media type (`curl -T` sends
 * none): never read or hashed here, so the upload streams untouched and memory stays flat.
 */
const STREAMED_BODY = /^\/api\/(upload-direct|storage\/local)\//;

/** Runs each write with an Idempotency-Key at most once per principal and key. */
export const idempotency: MiddlewareHandler<AppEnv> = (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (
    key === undefined || !WRITE_METHODS.includes(c.req.method) || EXCLUDED_PATHS.has(c.req.path)
  ) {
    return next();
  }
  return runOnce(c, next, key);
};

/** Runs a write with an Idempotency-Key once, or replays its kept reply. */
async function runOnce(c: Context<AppEnv>, next: Next, key: string) {
  if (!isValidIdempotencyKey(key)) throw new AppError("idempotency_key_invalid", 400);
  const store = c.get("services").idempotency;
  const scope = principalScope(c);
  const fingerprint = await requestFingerprint(c);
  const claim = await store.claim(scope, key, fingerprint);
  if (claim.kind !== "run") {
    if (claim.fingerprint !== fingerprint) throw new AppError("idempotency_key_reused", 422);
    if (claim.kind === "pending") throw new AppError("idempotency_in_progress", 409);
    return new Response(claim.reply.body, {
      status: claim.reply.status,
      headers: {
        "Content-Type": claim.reply.contentType,
        [IDEMPOTENT_REPLAYED_HEADER]: "true",
      },
    });
  }
  try {
    await next();
  } catch (err) {
    await store.release(scope, key, claim.versionstamp);
    throw err;
  }
  const res = c.res;
  if (res.status >= 200 && res.status < 300) {
    const contentType = res.headers.get("content-type") ?? "application/json";
    await store.keep(scope, key, claim.versionstamp, fingerprint, {
      status: res.status,
      contentType,
      body: await res.clone().text(),
    });
  } else {
    await store.release(scope, key, claim.versionstamp);
  }
}

/** The principal a key belongs to: the admin, one API key, or an anonymous client address. */
function principalScope(c: Context<AppEnv>): string {
  const auth = c.get("auth");
  if (auth.type === "admin") return "admin";
  if (auth.type === "apikey") return `apikey:${auth.id}`;
  return `anon:${c.get("clientIp")}`;
}

/**
 * What makes two requests "the same": method, path, sorted query and the body. JSON, form and
 * text bodies are hashed; a streamed body (multipart, a raw upload to a STREAMED_BODY route, or
 * one that declares more than HASHED_BODY_MAX) is known by its media type and length only,
 * because reading it here would hold a whole file in memory.
 */
async function requestFingerprint(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  url.searchParams.sort();
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const length = c.req.header("content-length") ?? "";
  let body = `${mediaType};length=${length}`;
  const declared = /^\d+$/.test(length) ? Number(length) : undefined;
  const streamed = STREAMED_BODY.test(url.pathname) ||
    (declared !== undefined && declared > HASHED_BODY_MAX);
  if (!streamed && HASHED_TYPES.test(mediaType) && c.req.raw.body) {
    const hashed = await hashBody(c.req.raw.clone());
    if (hashed !== null) body = `${mediaType};sha256=${hashed}`;
  }
  return await sha256Hex(
    [c.req.method, url.pathname, url.searchParams.toString(), body].join("\n"),
  );
}

/** SHA-256 of a body up to HASHED_BODY_MAX bytes; null when it is larger. */
async function hashBody(req: Request): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body!.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > HASHED_BODY_MAX) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  const digest = await crypto.subtle.digest("SHA-256", all);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
