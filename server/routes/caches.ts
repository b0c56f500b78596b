/**
 * Cache statistics and clearing (spec §7 "System"). The admin sees and clears every cache; any
 * logged-in user may clear the user-scoped caches (today: directory, S3 URL and search, all of
 * them; see CacheRegistry.clearForUser). Caches are per instance.
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

  app.post("/admin/cache/clear", requireAdmin, idempotent(), (c) => {
    return ok(c, c.get("services").caches.registry.clearAll());
  });

  app.post("/user/cache/clear", requireAuth, idempotent(), (c) => {
    return ok(c, c.get("services").caches.registry.clearForUser());
  });

  return app;
}
