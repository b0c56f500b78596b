/**
 * Reading request bodies in routes. A body is read only after auth and routing, by its route (or
 * by the route's `idempotent()` middleware, which hands the bytes on), within the route's limit
 * (`bodyLimit()`, else JSON_BODY_MAX) and the idle timeout (BODY_IDLE_TIMEOUT_MS, 408).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./types.ts";
import { AppError } from "../errors.ts";
import { readWatched, watchBody, type WatchedBody } from "./body_stream.ts";

/** The largest body a route that sets no limit of its own reads. */
export const JSON_BODY_MAX = 16 * 1024 * 1024;

/** The 413 of a body over its route's limit. */
export function payloadTooLarge(): AppError {
  return new AppError("payload_too_large", 413);
}

/** The Content-Length a request announces, or undefined. */
export function declaredLength(c: Context<AppEnv>): number | undefined {
  const length = c.req.header("content-length");
  return length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
}

/**
 * Route middleware: this route reads bodies of at most `maxBytes` (413 at once when the
 * Content-Length says more, else once that many bytes arrived).
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("bodyMax", maxBytes);
    if ((declaredLength(c) ?? 0) > maxBytes) throw payloadTooLarge();
    await next();
  };
}

/** The body limit of the matched route. */
export function bodyMaxOf(c: Context<AppEnv>): number {
  return c.get("bodyMax") ?? JSON_BODY_MAX;
}

/**
 * Reads the whole body within the route's limit (413) and the idle timeout (408); `onChunk`
 * sees every chunk. An absent body is empty.
 */
export async function readBodyBytes(
  c: Context<AppEnv>,
  onChunk?: (chunk: Uint8Array) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const maxBytes = bodyMaxOf(c);
  if ((declaredLength(c) ?? 0) > maxBytes) throw payloadTooLarge();
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  const idleMs = c.get("services").config.bodyIdleTimeoutMs;
  return await readWatched(body, { idleMs, maxBytes, tooLarge: payloadTooLarge, onChunk });
}

/** The body as UTF-8 text, read like readBodyBytes. */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(c));
}

/**
 * Puts the idle timeout (and `onChunk`) on a body that a route streams on (an upload), in place
 * of the request's own body; returns the watch, or null without a body.
 */
export function watchRequestBody(
  c: Context<AppEnv>,
  onChunk?: (chunk: Uint8Array) => void,
): WatchedBody | null {
  const body = c.req.raw.body;
  if (!body) return null;
  const idleMs = c.get("services").config.bodyIdleTimeoutMs;
  const watched = watchBody(body, { idleMs, onChunk });
  c.req.raw = new Request(c.req.raw, { body: watched.stream, duplex: "half" } as RequestInit);
  return watched;
}
