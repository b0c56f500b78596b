/** Health and version (docs/PRODUCT.md §7.6). */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { APP_VERSION } from "../../shared/constants.ts";

export function systemRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/health", async (c) => {
    await c.get("services").checkKv();
    return ok(c, { status: "ok", time: new Date().toISOString() });
  });
  app.get("/version", (c) => ok(c, { version: APP_VERSION, runtime: `deno ${Deno.version.deno}` }));
  return app;
}
