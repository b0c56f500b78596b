/**
 * Public access to file shares (docs/PRODUCT.md §7.3): info, verify, view, download, office
 * preview.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { objectResponse } from "../storage/object_response.ts";
import { parseRange } from "../storage/ranges.ts";
import { VerifySchema } from "../../shared/schemas/files.ts";
import { markCacheableShare } from "../http/offline_cache.ts";

async function deliver(c: Context<AppEnv>, download: boolean) {
  const result = await c.get("services").fileAccess.deliver(c.req.param("slug")!, {
    token: c.req.query("t"),
    password: c.req.query("password"),
    range: parseRange(c.req.header("range")),
    download,
    auth: c.get("auth"),
    ip: c.get("clientIp"),
  });
  if (result.kind === "redirect") return c.redirect(result.url, 302);
  const { rec, object } = result;
  const inm = c.req.header("if-none-match");
  if (inm && inm === object.etag && !object.range) {
    await object.body.cancel();
    return new Response(null, { status: 304, headers: { ETag: object.etag } });
  }
  return objectResponse(object, {
    filename: rec.filename,
    contentType: rec.mimetype,
    download,
    head: c.req.method === "HEAD",
  });
}

export function publicFileRoutes() {
  const app = new Hono<AppEnv>();
  const access = (c: Context<AppEnv>) => c.get("services").fileAccess;

  app.get("/public/files/:slug", async (c) => {
    const view = await access(c).open(
      c.req.param("slug"),
      undefined,
      c.get("auth"),
      c.get("clientIp"),
    );
    markCacheableShare(c, view);
    return ok(c, view);
  });

  // A read (the password opens the share): never idempotent, so never replayed.
  app.post("/public/files/:slug/verify", async (c) => {
    const { password } = await readJson(c, VerifySchema);
    return ok(
      c,
      await access(c).open(c.req.param("slug"), password, c.get("auth"), c.get("clientIp")),
    );
  });

  app.get("/office-preview/:slug", async (c) => {
    const origin = new URL(c.req.url).origin;
    return ok(
      c,
      await access(c).officeLinks(c.req.param("slug"), {
        token: c.req.query("t"),
        password: c.req.query("password"),
        origin,
        auth: c.get("auth"),
        ip: c.get("clientIp"),
      }),
    );
  });

  // Byte routes: app.ts makes their errors plain text (BYTE_ROUTES).
  app.on(["GET", "HEAD"], "/file-view/:slug", (c) => deliver(c, false));
  app.on(["GET", "HEAD"], "/file-download/:slug", (c) => deliver(c, true));
  return app;
}
