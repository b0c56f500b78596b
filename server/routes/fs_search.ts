/**
 * Mount search (docs/PRODUCT.md §7.8 GET /fs/search) and the admin's rebuild of a mount's search
 * index, for changes made to its storage outside Cubby.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson, readQuery } from "../http/validate.ts";
import { requireAdmin, requirePermission } from "../http/middleware.ts";
import { Permission } from "../../shared/permissions.ts";
import { idempotent } from "../http/idempotency.ts";
import { DEFAULT_SEARCH_LIMIT } from "../../shared/constants.ts";

const MAX_SEARCH_LIMIT = 200;

export const SearchQuery = z.object({
  q: z.string().max(255).default(""),
  scope: z.enum(["global", "mount", "directory"]).default("global"),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  mount_id: z.string().min(1).max(64).optional(),
  path: z.string().min(1).max(4096).optional(),
}).refine((v) => v.scope !== "mount" || v.mount_id, { path: ["mount_id"] })
  .refine((v) => v.scope !== "directory" || v.path, { path: ["path"] });

export const MountRef = z.object({ mount_id: z.string().min(1).max(64) });

const search = (c: Context<AppEnv>) => c.get("services").search;

export function fsSearchRoutes() {
  const app = new Hono<AppEnv>();

  app.get("/fs/search", requirePermission(Permission.MOUNT_VIEW), async (c) => {
    const q = readQuery(c, SearchQuery);
    return ok(
      c,
      await search(c).search({
        q: q.q,
        scope: q.scope,
        mountId: q.mount_id,
        path: q.path,
        limit: q.limit,
        offset: q.offset,
      }, c.get("auth")),
    );
  });

  app.post("/fs/search/rebuild", requireAdmin, idempotent(), async (c) => {
    const { mount_id } = await readJson(c, MountRef);
    const rec = await search(c).rebuild(mount_id, c.get("auth"));
    return ok(c, await search(c).rebuildStatus(rec.mount_id, c.get("auth")), 202);
  });

  app.get("/fs/search/rebuild", requireAdmin, async (c) => {
    const { mount_id } = readQuery(c, MountRef);
    return ok(c, await search(c).rebuildStatus(mount_id, c.get("auth")));
  });
  return app;
}
