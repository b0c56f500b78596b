/** API key management, admin only (docs/PRODUCT.md §7.1). */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { requireAdmin } from "../http/middleware.ts";
import { idempotent } from "../http/idempotency.ts";
import { ApiKeyCreateSchema, ApiKeyUpdateSchema } from "../../shared/schemas/api_keys.ts";

export function apiKeyRoutes() {
  const app = new Hono<AppEnv>();
  app.use("/admin/api-keys", requireAdmin);
  app.use("/admin/api-keys/*", requireAdmin);

  app.get("/admin/api-keys", async (c) => ok(c, await c.get("services").apiKeys.list()));

  app.post("/admin/api-keys", idempotent(), async (c) => {
    const input = await readJson(c, ApiKeyCreateSchema);
    return ok(c, await c.get("services").apiKeys.create(input), 201);
  });

  app.put("/admin/api-keys/:id", idempotent(), async (c) => {
    const input = await readJson(c, ApiKeyUpdateSchema);
    return ok(c, await c.get("services").apiKeys.update(c.req.param("id"), input));
  });

  app.delete("/admin/api-keys/:id", idempotent(), async (c) => {
    await c.get("services").apiKeys.delete(c.req.param("id"));
    return ok(c, null);
  });

  return app;
}
