/**
 * Copy tasks of the mount explorer (docs/PRODUCT.md §7.8 batch-copy; task list, cancel, retry,
 * clear).
 */
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import {
  assertAuthorized,
  assertMountAccess,
  requireMountAccess,
  requirePermission,
} from "../http/middleware.ts";
import { AppError } from "../errors.ts";
import { Permission } from "../../shared/permissions.ts";
import { idempotent } from "../http/idempotency.ts";
import {
  BatchCopyCommitSchema,
  BatchCopySchema,
  DeleteTaskSchema,
  DownloadTaskSchema,
} from "../../shared/schemas/tasks.ts";

const tasks = (c: Context<AppEnv>) => c.get("services").tasks;

/** A task write: the permission check it needs first, then the write. */
type TaskWrite = {
  guard: (c: Context<AppEnv>) => void;
  run: (c: Context<AppEnv>) => Promise<Response>;
};

/** `POST /fs/tasks/{name}`: the task writes that name no task. */
const TASK_WRITES = new Map<string, TaskWrite>([
  // Deletes of many or large folders, run in the background (batch-remove is the direct way).
  ["delete", {
    guard: (c) => assertAuthorized(c.get("auth"), Permission.MOUNT_DELETE),
    run: async (c) => {
      const { paths } = await readJson(c, DeleteTaskSchema);
      const task = await tasks(c).createDelete(paths, c.get("auth"));
      return ok(c, { task_id: task.id, task }, 202);
    },
  }],
  // Server-side downloads of URLs into a folder ("offline download"), guarded like URL upload.
  ["download", {
    guard: (c) => assertAuthorized(c.get("auth"), Permission.MOUNT_UPLOAD),
    run: async (c) => {
      const { urls, path } = await readJson(c, DownloadTaskSchema);
      const task = await tasks(c).createDownload(urls, path, c.get("auth"));
      return ok(c, { task_id: task.id, task }, 202);
    },
  }],
  ["clear", {
    guard: (c) => assertMountAccess(c.get("auth")),
    run: async (c) => ok(c, await tasks(c).clearFinished(c.get("auth"))),
  }],
]);

/** `POST /fs/tasks/{id}/{action}`: what can be done to one task. */
const TASK_ACTIONS = new Map<string, (c: Context<AppEnv>, id: string) => Promise<Response>>([
  ["cancel", async (c, id) => ok(c, await tasks(c).cancel(id, c.get("auth")))],
  ["retry", async (c, id) => ok(c, await tasks(c).retry(id, c.get("auth")))],
]);

/** The names `POST /fs/tasks/{name}` and `POST /fs/tasks/{id}/{action}` answer to. */
export const TASK_WRITE_NAMES = [...TASK_WRITES.keys()];
export const TASK_ACTION_NAMES = [...TASK_ACTIONS.keys()];

function taskWriteOf(c: Context<AppEnv>): TaskWrite {
  const write = TASK_WRITES.get(c.req.param("name")!);
  if (!write) throw new AppError("route_not_found", 404);
  return write;
}

/** 404 for an unknown task write, else its permission check (before idempotent()). */
const taskWriteGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  taskWriteOf(c).guard(c);
  await next();
};

/** 404 for an unknown task action, else the mount-access check (before idempotent()). */
const taskActionGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!TASK_ACTIONS.has(c.req.param("action")!)) throw new AppError("route_not_found", 404);
  assertMountAccess(c.get("auth"));
  await next();
};

export function fsTaskRoutes() {
  const app = new Hono<AppEnv>();
  const canCopy = requirePermission(Permission.MOUNT_COPY);

  app.post("/fs/batch-copy", canCopy, idempotent(), async (c) => {
    const { items, skipExisting, on_conflict } = await readJson(c, BatchCopySchema);
    const mode = on_conflict ?? (skipExisting ? "skip" : "overwrite");
    const task = await tasks(c).createCopy(items, mode, c.get("auth"));
    return ok(c, { task_id: task.id, task }, 202);
  });

  // Cross-storage copies done by the browser (download, upload, then commit): the files are
  // already in place; this checks each one exists where the caller may write. A check that
  // changes nothing, so never idempotent.
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

  app.get("/fs/tasks", requireMountAccess, async (c) => ok(c, await tasks(c).list(c.get("auth"))));
  app.get(
    "/fs/tasks/:id",
    requireMountAccess,
    async (c) => ok(c, await tasks(c).get(c.req.param("id"), c.get("auth"))),
  );
  // The writes are two parameterised routes, not a fixed path next to a parameter (`/delete` beside
  // `/:id/cancel`): Hono's RegExpRouter refuses that mix for one method, and one refused route puts
  // every request of the app on the slower TrieRouter (app_router_test.ts checks it).
  app.post("/fs/tasks/:name", taskWriteGuard, idempotent(), (c) => taskWriteOf(c).run(c));
  app.post(
    "/fs/tasks/:id/:action",
    taskActionGuard,
    idempotent(),
    (c) => TASK_ACTIONS.get(c.req.param("action"))!(c, c.req.param("id")),
  );
  return app;
}
