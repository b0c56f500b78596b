/**
 * `idempotent()`: the Idempotency-Key middleware of the routes that really write (README
 * "Idempotent writes"; docs/DECISIONS.md lists them). A route puts it after its auth guard, so it
 * runs only on a matched route and only for the admin or an API key; an anonymous caller's header
 * is ignored, and reads that use POST (unlocking a share, verifying a password) never carry it.
 *
 * A write with the header runs at most once per principal and key: the key is reserved
 * atomically before the handler runs, a 2xx reply is kept for 25 h and a repeat gets it back with
 * `Idempotent-Replayed: true`. A repeat while the first request still runs gets 409
 * `idempotency_in_progress`; the same key on a different request gets 422
 * `idempotency_key_reused`. A failed request (any non-2xx) releases the key, because it changed
 * nothing, so a retry runs again.
 *
 * A request is known by its method, path, sorted query, media type and the SHA-256 of its whole
 * body. A JSON, text or form body is read once here, within the route's limit, hashed and handed
 * on as the request's body. A streamed body (an upload) is hashed as it passes to storage: its
 * key is claimed before the handler runs and the body's hash is stored with the kept reply; a
 * repeat hashes its own body as it arrives (and discards it, within the upload limit) and is
 * replayed only when the hashes match.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./types.ts";
import { AppError, fileTooLarge } from "../errors.ts";
import { type Claim, type IdempotencyFingerprint, sha256Hex } from "../services/idempotency.ts";
import { readBodyBytes, watchRequestBody } from "./body.ts";
import { watchBody } from "./body_stream.ts";
import { BodyHasher } from "./body_hash.ts";
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isValidIdempotencyKey,
} from "../../shared/idempotency.ts";

/**
 * How a route's body is read (see the module comment): buffered by default; `upload` marks a
 * file streamed to storage, sent raw or as a multipart form.
 */
export type IdempotentOptions = { upload?: "raw" | "form" };

/** Room a multipart form takes besides its file: the fields readUploadForm allows, and headers. */
const FORM_OVERHEAD_BYTES = 4 * 1024 * 1024;

const IDEMPOTENT_HANDLERS = new WeakSet<object>();

/** True for a handler made by idempotent() (the route list test looks for it). */
export function isIdempotentHandler(handler: unknown): boolean {
  return typeof handler === "function" && IDEMPOTENT_HANDLERS.has(handler);
}

/** Route middleware: runs the write once per principal and Idempotency-Key. */
export function idempotent(opts: IdempotentOptions = {}): MiddlewareHandler<AppEnv> {
  const handler: MiddlewareHandler<AppEnv> = (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    const auth = c.get("auth");
    if (key === undefined || auth.type === "none") {
      if (opts.upload) watchRequestBody(c);
      return next();
    }
    if (!isValidIdempotencyKey(key)) throw new AppError("idempotency_key_invalid", 400);
    const scope = auth.type === "admin" ? "admin" : `apikey:${auth.id}`;
    return opts.upload
      ? runStreamed(c, next, scope, key, opts.upload)
      : runBuffered(c, next, scope, key);
  };
  IDEMPOTENT_HANDLERS.add(handler);
  return handler;
}

/** A JSON, text or form body: read and hashed first, then handed to the route. */
async function runBuffered(c: Context<AppEnv>, next: Next, scope: string, key: string) {
  const hasher = new BodyHasher(c.req.header("content-type") ?? "");
  const hadBody = c.req.raw.body !== null;
  const bytes = await readBodyBytes(c, (chunk) => hasher.update(chunk));
  if (hadBody) c.req.raw = new Request(c.req.raw, { body: bytes });
  const fingerprint = { request: await requestHash(c), body: hasher.digest() };
  const claim = await store(c).claim(scope, key, fingerprint);
  if (claim.kind !== "run") return answerRepeat(claim, fingerprint);
  return await runClaimed(
    c,
    next,
    scope,
    key,
    claim.versionstamp,
    fingerprint.request,
    () => fingerprint.body,
  );
}

/** An upload: claimed first, hashed while it streams to storage. */
async function runStreamed(
  c: Context<AppEnv>,
  next: Next,
  scope: string,
  key: string,
  upload: "raw" | "form",
) {
  const request = await requestHash(c);
  const claim = await store(c).claim(scope, key, { request, body: null });
  if (claim.kind === "pending") return answerRepeat(claim, { request, body: null });
  if (claim.kind === "done") {
    if (claim.fingerprint.request !== request) throw reused();
    return answerRepeat(claim, { request, body: await hashAndDiscard(c, upload) });
  }
  const hasher = new BodyHasher(c.req.header("content-type") ?? "");
  const watched = watchRequestBody(c, (chunk) => hasher.update(chunk));
  // Kept only when the body was read to its end, so the hash covers all of it.
  return await runClaimed(
    c,
    next,
    scope,
    key,
    claim.versionstamp,
    request,
    () => watched?.ended() !== false ? hasher.digest() : null,
  );
}

/** Runs the handler under a claimed key; keeps a 2xx reply, releases the key otherwise. */
async function runClaimed(
  c: Context<AppEnv>,
  next: Next,
  scope: string,
  key: string,
  versionstamp: string,
  request: string,
  bodyHash: () => string | null,
) {
  const idempotency = store(c);
  try {
    await next();
  } catch (err) {
    await idempotency.release(scope, key, versionstamp);
    throw err;
  }
  const res = c.res;
  const body = res.status >= 200 && res.status < 300 ? bodyHash() : null;
  if (body === null) return await idempotency.release(scope, key, versionstamp);
  await idempotency.keep(scope, key, versionstamp, { request, body }, {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "application/json",
    body: await res.clone().text(),
  });
}

/** What a repeat gets: 422 for another request, 409 while the first runs, else the reply. */
function answerRepeat(claim: Exclude<Claim, { kind: "run" }>, mine: IdempotencyFingerprint) {
  const first = claim.fingerprint;
  if (first.request !== mine.request) throw reused();
  if (first.body !== null && mine.body !== null && first.body !== mine.body) throw reused();
  if (claim.kind === "pending") throw new AppError("idempotency_in_progress", 409);
  return new Response(claim.reply.body, {
    status: claim.reply.status,
    headers: {
      "Content-Type": claim.reply.contentType,
      [IDEMPOTENT_REPLAYED_HEADER]: "true",
    },
  });
}

function reused(): AppError {
  return new AppError("idempotency_key_reused", 422);
}

/** A repeat's upload body, read to its end within the upload limit and thrown away: its hash. */
async function hashAndDiscard(c: Context<AppEnv>, upload: "raw" | "form"): Promise<string> {
  const hasher = new BodyHasher(c.req.header("content-type") ?? "");
  const body = c.req.raw.body;
  if (body) {
    const max = await c.get("services").settings.getMaxUploadBytes();
    const reader = watchBody(body, {
      idleMs: c.get("services").config.bodyIdleTimeoutMs,
      maxBytes: max + (upload === "form" ? FORM_OVERHEAD_BYTES : 0),
      tooLarge: () => fileTooLarge(max),
      onChunk: (chunk) => hasher.update(chunk),
    }).stream.getReader();
    while (!(await reader.read()).done) { /* hashed by onChunk */ }
  }
  return hasher.digest();
}

/** The hash of what, besides its body, makes a request: method, path, sorted query, media type. */
async function requestHash(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  url.searchParams.sort();
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  return await sha256Hex(
    [c.req.method, url.pathname, url.searchParams.toString(), mediaType].join("\n"),
  );
}

function store(c: Context<AppEnv>) {
  return c.get("services").idempotency;
}
