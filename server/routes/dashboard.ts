/** The admin dashboard's numbers (docs/PRODUCT.md §7.6: GET /admin/dashboard/stats), admin only. */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { requireAdmin } from "../http/middleware.ts";
import { withStorageName } from "../../shared/storage_names.ts";

export function dashboardRoutes() {
  const app = new Hono<AppEnv>();

  app.get("/admin/dashboard/stats", requireAdmin, async (c) => {
    const stats = await c.get("services").stats.dashboard();
    const lang = c.get("lang");
    return ok(c, { ...stats, buckets: stats.buckets.map((b) => withStorageName(b, lang)) });
  });

  return app;
}
