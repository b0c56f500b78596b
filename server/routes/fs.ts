/**
 * The mount explorer's filesystem API (docs/PRODUCT.md §7.8). Each route checks its mount bit;
 * MountService.resolve applies the key's base path to every path, separator-aware.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson, readQuery, validate } from "../http/validate.ts";
import { requireMountAccess, requirePermission } from "../http/middleware.ts";
import { openedFileResponse } from "../storage/object_response.ts";
import { readUploadForm } from "../http/upload_form.ts";
import { spoolDirOf } from "../storage/temp_files.ts";
import { parseRange } from "../storage/ranges.ts";
import { Permission } from "../../shared/permissions.ts";
import { FileShareOptionsSchema } from "../../shared/schemas/files.ts";
import { MAX_PASTE_BYTES } from "../../shared/constants.ts";
import { bodyLimit } from "../http/body.ts";
import { idempotent } from "../http/idempotency.ts";

const Path = z.string().min(1).max(4096);
export const ListQuery = z.object({
  path: Path.default("/"),
  refresh: z.string().optional(),
  cursor: z.string().max(4096).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
/** `expires_in` here is the link's lifetime in SECONDS (not a share option, which is hours). */
export const LinkQuery = z.object({
  path: Path,
  force_download: z.enum(["true", "false", "1", "0"]).optional(),
  expires_in: z.coerce.number().int().min(0).optional(),
});
export const PathOnly = z.object({ path: Path });
/** What an upload does with a file already at its path; absent: the file_overwrite_mode setting. */
export const OnConflict = z.enum(["overwrite", "rename", "fail"]).optional();
export const UploadFields = z.object({ path: Path.default("/"), on_conflict: OnConflict });
/** The names a person is about to upload or copy into folder `path`. */
export const ExistsBody = z.object({
  path: Path,
  names: z.array(z.string().min(1).max(1024)).min(1).max(1000),
});
export const UpdateBody = z.object({ path: Path, content: z.string() });
export const BatchRemoveBody = z.object({ paths: z.array(Path).min(1).max(1000) });
export const RenameBody = z.object({ oldPath: Path, newPath: Path });
export const CreateShareBody = FileShareOptionsSchema.extend({ path: Path });

const fs = (c: Context<AppEnv>) => c.get("services").fs;

export function fsRoutes() {
  const app = new Hono<AppEnv>();
  const view = requirePermission(Permission.MOUNT_VIEW);
  const upload = requirePermission(Permission.MOUNT_UPLOAD);

  // Any mount bit lists the folders above mounts; the service asks for the view bit inside one.
  app.get("/fs/list", requireMountAccess, async (c) => {
    const q = readQuery(c, ListQuery);
    const refresh = q.refresh === "true" || q.refresh === "1";
    const opts = { cursor: q.cursor, limit: q.limit, refresh };
    return ok(c, await fs(c).list(q.path, c.get("auth"), opts));
  });

  app.get("/fs/get", view, async (c) => {
    const { path } = readQuery(c, PathOnly);
    return ok(c, await fs(c).get(path, c.get("auth")));
  });

  app.on(["GET", "HEAD"], "/fs/download", view, async (c) => {
    const { path } = readQuery(c, PathOnly);
    const file = await fs(c).download(path, c.get("auth"), parseRange(c.req.header("range")));
    return openedFileResponse(file, c.req.method, true);
  });

  app.post("/fs/upload", upload, idempotent({ upload: "form" }), async (c) => {
    const services = c.get("services");
    // The folder, the name and the announced size decide where and how the file is written;
    // a file sent before any of them is spooled until the form has ended (upload_form.ts).
    const form = await readUploadForm(c.req.raw, {
      decides: ["path", "filename", "size", "on_conflict"],
      spoolDir: spoolDirOf(services.config.dataDir),
      maxBytes: await services.settings.getMaxUploadBytes(),
    });
    try {
      const fields = validate(UploadFields, form.fields);
      const dir = fields.path;
      const onConflict = fields.on_conflict ?? await services.settings.getFileOverwriteMode();
      const size = form.fields.size && /^\d+$/.test(form.fields.size)
        ? Number(form.fields.size)
        : undefined;
      const entry = await fs(c).upload(
        dir,
        form.file.filename,
        form.file.stream,
        c.get("auth"),
        size,
        onConflict,
      );
      return ok(c, entry, 201);
    } catch (err) {
      throw form.error() ?? err;
    } finally {
      await form.dispose();
    }
  });

  // Which of these names are taken in a folder, before an upload or a copy asks what to do.
  app.post("/fs/exists", requireMountAccess, async (c) => {
    const { path, names } = await readJson(c, ExistsBody);
    return ok(c, { path, existing: await fs(c).existing(path, names, c.get("auth")) });
  });

  app.post("/fs/mkdir", upload, idempotent(), async (c) => {
    const { path } = await readJson(c, PathOnly);
    return ok(c, await fs(c).mkdir(path, c.get("auth")), 201);
  });

  // The editor saves at most a paste's size of text; JSON escaping may triple it.
  app.post("/fs/update", upload, bodyLimit(3 * MAX_PASTE_BYTES), idempotent(), async (c) => {
    const { path, content } = await readJson(c, UpdateBody);
    return ok(c, await fs(c).update(path, content, c.get("auth")));
  });

  app.on(
    ["DELETE", "POST"],
    "/fs/batch-remove",
    requirePermission(Permission.MOUNT_DELETE),
    idempotent(),
    async (c) => {
      const { paths } = await readJson(c, BatchRemoveBody);
      return ok(c, await fs(c).remove(paths, c.get("auth")));
    },
  );

  app.post("/fs/rename", requirePermission(Permission.MOUNT_RENAME), idempotent(), async (c) => {
    const { oldPath, newPath } = await readJson(c, RenameBody);
    return ok(c, await fs(c).rename(oldPath, newPath, c.get("auth")));
  });

  app.get("/fs/file-link", view, async (c) => {
    const q = readQuery(c, LinkQuery);
    const link = await fs(c).fileLink(q.path, c.get("auth"), {
      forceDownload: q.force_download === "true" || q.force_download === "1",
      expiresIn: q.expires_in,
    });
    return ok(c, { ...link, url: new URL(link.url, c.req.url).toString() });
  });

  app.post(
    "/fs/create-share",
    requirePermission(Permission.MOUNT_VIEW | Permission.FILE_SHARE),
    idempotent(),
    async (c) => {
      const input = await readJson(c, CreateShareBody);
      const view = await fs(c).createShare(input.path, input, c.get("auth"));
      return ok(c, { ...view, url: new URL(view.url, c.req.url).toString() }, 201);
    },
  );
  return app;
}
