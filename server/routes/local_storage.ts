/**
 * The local driver's "presigned" URLs: signed, short-lived Cubby URLs that GET an object or
 * accept one PUT of an object or a multipart part. The signature is the only credential.
 * Errors are plain text (a byte route: BYTE_ROUTES in middleware.ts).
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import { objectResponse } from "../storage/object_response.ts";
import { parseRange, resolveRequestedRange } from "../storage/ranges.ts";
import { LocalDriver } from "../storage/local.ts";
import { sizeMismatch } from "../storage/local_errors.ts";
import { AppError } from "../errors.ts";
import { watchRequestBody } from "../http/body.ts";

async function localDriverOf(c: Context<AppEnv>): Promise<LocalDriver> {
  const svc = c.get("services").storageConfigs;
  const rec = await svc.getRecord(c.req.param("configId")!);
  const driver = await svc.driverFor(rec);
  if (!(driver instanceof LocalDriver)) throw new AppError("not_found", 404);
  return driver;
}

export function localStorageRoutes() {
  const app = new Hono<AppEnv>();

  app.on(["GET", "HEAD"], "/storage/local/:configId/*", async (c) => {
    const driver = await localDriverOf(c);
    const signed = driver.verifySignedRequest(new URL(c.req.url), c.req.method);
    const head = await driver.head(signed.key);
    if (!head) throw new AppError("storage_object_not_found", 404);
    const range = resolveRequestedRange(parseRange(c.req.header("range")), head.size);
    const obj = await driver.get(signed.key, { range });
    return objectResponse(obj, {
      filename: signed.filename ?? signed.key.split("/").pop()!,
      contentType: signed.contentType ?? obj.contentType,
      download: signed.download,
      head: c.req.method === "HEAD",
    });
  });

  app.put("/storage/local/:configId/*", async (c) => {
    const driver = await localDriverOf(c);
    const signed = driver.verifySignedRequest(new URL(c.req.url), "PUT");
    // The idle timeout: a body that stalls gets 408, not a request held open for ever.
    const body = watchRequestBody(c)?.stream;
    if (!body) throw new AppError("file_required", 400);
    const length = c.req.header("content-length");
    const sent = length && /^\d+$/.test(length) ? Number(length) : undefined;
    // A size bound into the signature is the only size accepted; the driver enforces it on
    // the stream too, so a body without Content-Length cannot exceed it either.
    if (signed.size !== undefined && sent !== undefined && sent !== signed.size) {
      throw sizeMismatch(signed.size, sent);
    }
    const size = signed.size ?? sent;
    if (signed.op === "part") {
      const { etag } = await driver.uploadPart(
        signed.key,
        signed.uploadId!,
        signed.partNumber!,
        body,
        size,
      );
      return new Response(null, { status: 200, headers: { ETag: etag } });
    }
    const { etag } = await driver.put(signed.key, body, {
      contentType: signed.contentType ?? c.req.header("content-type"),
      size,
    });
    return new Response(null, { status: 200, headers: { ETag: etag } });
  });
  return app;
}
