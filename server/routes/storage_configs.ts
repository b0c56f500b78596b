/**
 * Storage configs (docs/PRODUCT.md §7.4): admin manages; key users with FILE_SHARE may list public
 * ones.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { requireAdmin, requirePermission } from "../http/middleware.ts";
import { Permission } from "../../shared/permissions.ts";
import { idempotent } from "../http/idempotency.ts";
import {
  StorageConfigCreateSchema,
  StorageConfigUpdateSchema,
} from "../../shared/schemas/storage_configs.ts";
import { withStorageName } from "../../shared/storage_names.ts";

export function storageConfigRoutes() {
  const app = new Hono<AppEnv>();
  const svc = (c: { get: (k: "services") => AppEnv["Variables"]["services"] }) =>
    c.get("services").storageConfigs;

  app.get(
    "/s3-configs",
    requirePermission(Permission.FILE_SHARE),
    async (c) =>
      ok(c, (await svc(c).list(c.get("auth"))).map((v) => withStorageName(v, c.get("lang")))),
  );
  app.get(
    "/s3-configs/:id",
    requirePermission(Permission.FILE_SHARE),
    async (c) =>
      ok(c, withStorageName(await svc(c).get(c.req.param("id"), c.get("auth")), c.get("lang"))),
  );

  app.post("/s3-configs", requireAdmin, idempotent(), async (c) => {
    const input = await readJson(c, StorageConfigCreateSchema);
    return ok(c, withStorageName(await svc(c).create(input), c.get("lang")), 201);
  });
  app.put("/s3-configs/:id", requireAdmin, idempotent(), async (c) => {
    const input = await readJson(c, StorageConfigUpdateSchema);
    return ok(c, withStorageName(await svc(c).update(c.req.param("id"), input), c.get("lang")));
  });
  app.delete("/s3-configs/:id", requireAdmin, idempotent(), async (c) => {
    await svc(c).delete(c.req.param("id"));
    await c.get("services").search.forgetStorage(c.req.param("id"));
    return ok(c, null);
  });
  app.put("/s3-configs/:id/set-default", requireAdmin, idempotent(), async (c) => {
    await svc(c).setDefault(c.req.param("id"));
    return ok(c, null);
  });
  // A connection check that changes nothing: it runs again every time.
  app.post(
    "/s3-configs/:id/test",
    requireAdmin,
    async (c) => ok(c, await svc(c).test(c.req.param("id"))),
  );
  return app;
}
