/**
 * Public proxy links (`GET`/`HEAD /api/p/<path>`): byte routes with plain-text errors and the
 * user-content headers, with ranges. `GET /api/fs/proxy-link?path` hands an explorer user
 * (MOUNT_VIEW) the link of a file, signed when its mount needs it.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readQuery } from "../http/validate.ts";
import { requirePermission } from "../http/middleware.ts";
import { openedFileResponse } from "../storage/object_response.ts";
import { parseRange } from "../storage/ranges.ts";
import { AppError } from "../errors.ts";
import { Permission } from "../../shared/permissions.ts";

const proxy = (c: Context<AppEnv>) => c.get("services").proxyLinks;

/** The virtual path of a proxy URL, segments percent-decoded; 400 when malformed. */
function pathOf(url: string): string {
  const raw = new URL(url).pathname.replace(/^\/api\/p(?=\/|$)/, "");
  try {
    return "/" + raw.split("/").filter((s) => s !== "").map(decodeURIComponent).join("/");
  } catch {
    throw new AppError("storage_path_invalid", 400);
  }
}

/** GET /fs/proxy-link query. */
export const ProxyLinkQuery = z.object({ path: z.string().min(1).max(4096) });

export function proxyRoutes() {
  const app = new Hono<AppEnv>();

  app.on(["GET", "HEAD"], "/p/*", async (c) => {
    const file = await proxy(c).open(
      pathOf(c.req.url),
      c.req.query("sign"),
      parseRange(c.req.header("range")),
    );
    return openedFileResponse(file, c.req.method, false);
  });

  app.get("/fs/proxy-link", requirePermission(Permission.MOUNT_VIEW), async (c) => {
    const { path } = readQuery(c, ProxyLinkQuery);
    const link = await proxy(c).linkFor(path, c.get("auth"));
    return ok(c, { ...link, url: new URL(link.url, c.req.url).toString() });
  });
  return app;
}
