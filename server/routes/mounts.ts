/**
 * Mount management (docs/PRODUCT.md §7.5): key users may list what they can reach; only the admin
 * changes mounts.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { requireAdmin, requireMountAccess } from "../http/middleware.ts";
import { idempotent } from "../http/idempotency.ts";
import { MountCreateSchema, MountUpdateSchema } from "../../shared/schemas/mounts.ts";

export function mountRoutes() {
  const app = new Hono<AppEnv>();
  app.get(
    "/mount/list",
    requireMountAccess,
    async (c) => ok(c, await c.get("services").mounts.list(c.get("auth"))),
  );
  app.post("/mount/create", requireAdmin, idempotent(), async (c) => {
    const input = await readJson(c, MountCreateSchema);
    const mount = await c.get("services").mounts.create(input, c.get("auth"));
    // A new mount over an existing bucket or folder: index what is already there.
    await c.get("services").search.rebuild(mount.id, c.get("auth")).catch(() => {});
    return ok(c, mount, 201);
  });
  app.put("/mount/:id", requireAdmin, idempotent(), async (c) => {
    const input = await readJson(c, MountUpdateSchema);
    return ok(c, await c.get("services").mounts.update(c.req.param("id"), input, c.get("auth")));
  });
  app.delete("/mount/:id", requireAdmin, idempotent(), async (c) => {
    await c.get("services").mounts.delete(c.req.param("id"), c.get("auth"));
    return ok(c, null);
  });
  return app;
}
