/** Copy tasks of the mount explorer (spec §7 batch-copy; task list, cancel, retry, clear). */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { requireMountAccess, requirePermission } from "../http/middleware.ts";
import { Permission } from "../../shared/permissions.ts";
import {
  BatchCopyCommitSchema,
  BatchCopySchema,
  DeleteTaskSchema,
  DownloadTaskSchema,
} from "../../shared/schemas/tasks.ts";

const tasks = (c: Context<AppEnv>) => c.get("services").tasks;

export function fsTaskRoutes() {
  const app = new Hono<AppEnv>();
  const canCopy = requirePermission(Permission.MOUNT_COPY);

  app.post("/fs/batch-copy", canCopy, async (c) => {
    const { items, skipExisting } = await readJson(c, BatchCopySchema);
    const task = await tasks(c).createCopy(items, skipExisting, c.get("auth"));
    return ok(c, { task_id: task.id, task }, 202);
  });

  // Cross-storage copies done by the browser (download, upload, then commit): the files are
  // already in place; this checks each one exists where the caller may write.
  app.post("/fs/batch-copy-commit", canCopy, async (c) => {
    const { files } = await readJson(c, BatchCopyCommitSchema);
    const fs = c.get("services").fs;
    const results = [];
    for (const f of files) {
      try {
        results.push({
          path: f.targetPath,
          ok: true,
          file: await fs.get(f.targetPath, c.get("auth")),
        });
      } catch {
        results.push({ path: f.targetPath, ok: false });
      }
    }
    return ok(c, { committed: results.filter((r) => r.ok).length, results });
  });

  // Deletes of many or large folders, run in the background (batch-remove is the direct way).
  app.post("/fs/tasks/delete", requirePermission(Permission.MOUNT_DELETE), async (c) => {
    const { paths } = await readJson(c, DeleteTaskSchema);
    const task = await tasks(c).createDelete(paths, c.get("auth"));
    return ok(c, { task_id: task.id, task }, 202);
  });

  // Server-side downloads of URLs into a folder ("offline download"), guarded like URL upload.
  app.post("/fs/tasks/download", requirePermission(Permission.MOUNT_UPLOAD), async (c) => {
    const { urls, path } = await readJson(c, DownloadTaskSchema);
    const task = await tasks(c).createDownload(urls, path, c.get("auth"));
    return ok(c, { task_id: task.id, task }, 202);
  });

  app.get("/fs/tasks", requireMountAccess, async (c) => ok(c, await tasks(c).list(c.get("auth"))));
  app.get(
    "/fs/tasks/:id",
    requireMountAccess,
    async (c) => ok(c, await tasks(c).get(c.req.param("id"), c.get("auth"))),
  );
  app.post(
    "/fs/tasks/:id/cancel",
    requireMountAccess,
    async (c) => ok(c, await tasks(c).cancel(c.req.param("id"), c.get("auth"))),
  );
  app.post(
    "/fs/tasks/:id/retry",
    requireMountAccess,
    async (c) => ok(c, await tasks(c).retry(c.req.param("id"), c.get("auth"))),
  );
  app.post(
    "/fs/tasks/clear",
    requireMountAccess,
    async (c) => ok(c, await tasks(c).clearFinished(c.get("auth"))),
  );
  return app;
}
