/**
 * Settings (docs/PRODUCT.md §7.6). Every /admin/settings route needs the admin, except reading the
 * site group: GET /admin/settings?group=4 (as CloudPaste's client asks) and GET
 * /public/site-config (with the preview extension lists, which anonymous visitors' file pages
 * need to pick a preview) answer everyone.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readQuery } from "../http/validate.ts";
import { readBodyText } from "../http/body.ts";
import { idempotent } from "../http/idempotency.ts";
import { requireAdmin } from "../http/middleware.ts";
import { AppError } from "../errors.ts";
import { SITE_GROUP } from "../../shared/schemas/settings.ts";

const Flag = z.enum(["true", "false", "1", "0"]).optional().transform((v) =>
  v === "true" || v === "1"
);

export const ListQuerySchema = z.object({
  group: z.enum(["1", "2", "3", "4"]).optional().transform((v) =>
    v === undefined ? undefined : Number(v) as 1 | 2 | 3 | 4
  ),
  metadata: Flag,
  includeSystem: Flag,
});

export const UpdateQuerySchema = z.object({
  validate: z.enum(["true", "false", "1", "0"]).optional().transform((v) =>
    v !== "false" && v !== "0"
  ),
});

export function settingsRoutes() {
  const app = new Hono<AppEnv>();
  const svc = (c: { get: (k: "services") => AppEnv["Variables"]["services"] }) =>
    c.get("services").settings;

  app.get("/public/site-config", async (c) => {
    c.header("Cache-Control", "no-cache");
    return ok(c, await svc(c).getPublicSiteConfig());
  });

  // The site group (4) is public: every visitor's page needs its title, favicon and footer.
  // Every other group, and the whole list, stays admin-only.
  app.get("/admin/settings", async (c, next) => {
    const q = readQuery(c, ListQuerySchema);
    if (q.group !== SITE_GROUP) await requireAdmin(c, async () => {});
    await next();
  }, async (c) => {
    const q = readQuery(c, ListQuerySchema);
    return ok(c, await svc(c).list(q));
  });
  app.get("/admin/settings/groups", requireAdmin, (c) => ok(c, svc(c).groups()));
  app.get(
    "/admin/settings/metadata",
    requireAdmin,
    (c) => ok(c, svc(c).metadata(c.req.query("key"))),
  );
  app.put("/admin/settings/group/:group", requireAdmin, idempotent(), async (c) => {
    const { validate } = readQuery(c, UpdateQuerySchema);
    const group = Number(c.req.param("group"));
    const text = await readBodyText(c);
    let body: unknown;
    try {
      body = JSON.parse(text || "null");
    } catch {
      throw new AppError("invalid_json", 400);
    }
    return ok(c, await svc(c).updateGroup(group, body, validate));
  });
  return app;
}
