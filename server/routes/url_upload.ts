/**
 * URL upload (docs/PRODUCT.md §7.7): the browser asks for a URL's details, downloads it through
 * the guarded proxy (progress 0–49 %), then uploads it like any file (50–99 %) with the presign
 * or multipart calls, which are shared with /s3/*.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { requirePermission } from "../http/middleware.ts";
import { userContentHeaders } from "../storage/object_response.ts";
import { Permission } from "../../shared/permissions.ts";
import { idempotent } from "../http/idempotency.ts";
import { FileIdSchema } from "../../shared/schemas/files.ts";
import { filenameFromResponse, guardedFetch } from "../services/url_fetch.ts";
import { limitStream } from "../lib/limit_stream.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import { z } from "zod";
import { AppError, fileTooLarge } from "../errors.ts";

export const UrlSchema = z.object({ url: z.string().min(1).max(4096) });
const INFO_TIMEOUT_MS = 15_000;
const PROXY_TIMEOUT_MS = 30 * 60_000;

export function urlUploadRoutes() {
  const app = new Hono<AppEnv>();
  const canShare = requirePermission(Permission.FILE_SHARE);

  // A look at a URL's name and size, changing nothing: it runs again every time.
  app.post("/url/info", canShare, async (c) => {
    const { url } = await readJson(c, UrlSchema);
    const allowLoopback = c.get("services").config.allowLoopbackFetch;
    let fetched = await guardedFetch(url, {
      allowLoopback,
      timeoutMs: INFO_TIMEOUT_MS,
      method: "HEAD",
    })
      .catch(() => null);
    if (!fetched) fetched = await guardedFetch(url, { allowLoopback, timeoutMs: INFO_TIMEOUT_MS });
    const { response, finalUrl } = fetched;
    await response.body?.cancel();
    const filename = filenameFromResponse(response, finalUrl);
    const length = response.headers.get("content-length");
    return ok(c, {
      url: finalUrl.toString(),
      filename,
      size: length && /^\d+$/.test(length) ? Number(length) : null,
      content_type: contentTypeFor(filename, response.headers.get("content-type")),
    });
  });

  app.get("/url/proxy", canShare, async (c) => {
    const url = c.req.query("url");
    if (!url) throw new AppError("url_invalid", 400);
    const services = c.get("services");
    const { response, finalUrl } = await guardedFetch(url, {
      allowLoopback: services.config.allowLoopbackFetch,
      timeoutMs: PROXY_TIMEOUT_MS,
      signal: c.req.raw.signal,
    });
    const max = await services.settings.getMaxUploadBytes();
    const length = response.headers.get("content-length");
    if (length && Number(length) > max) {
      await response.body?.cancel();
      throw fileTooLarge(max, Number(length));
    }
    const filename = filenameFromResponse(response, finalUrl);
    const headers = new Headers(userContentHeaders());
    headers.set("Content-Type", "application/octet-stream");
    headers.set("X-Filename", encodeURIComponent(filename));
    headers.set("X-Content-Type", contentTypeFor(filename, response.headers.get("content-type")));
    if (length) headers.set("Content-Length", length);
    const body = response.body ? limitStream(response.body, max).stream : null;
    return new Response(body, { status: 200, headers });
  });

  app.post("/url/cancel", canShare, idempotent(), async (c) => {
    const { file_id } = await readJson(c, FileIdSchema);
    await c.get("services").multipartUploads.cancel(file_id, c.get("auth"));
    return ok(c, null);
  });
  return app;
}
