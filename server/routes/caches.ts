/**
 * Cache statistics and clearing (docs/PRODUCT.md §7.6). The admin sees and clears every cache; any
 * logged-in user may clear the user-scoped caches (today: directory, S3 URL and search, all of
 * them; see CacheRegistry.clearForUser). A clear reaches every instance; statistics are the
 * answering instance's.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { requireAdmin, requireAuth } from "../http/middleware.ts";
import { idempotent } from "../http/idempotency.ts";

export function cacheRoutes() {
  const app = new Hono<AppEnv>();

  app.get("/admin/cache/stats", requireAdmin, (c) => {
    return ok(c, { caches: c.get("services").caches.registry.stats() });
  });

  app.post("/admin/cache/clear", requireAdmin, idempotent(), async (c) => {
    return ok(c, await c.get("services").caches.clearAll());
  });

  app.post("/user/cache/clear", requireAuth, idempotent(), async (c) => {
    return ok(c, await c.get("services").caches.clearForUser());
  });

  return app;
}
