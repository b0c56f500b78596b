/**
 * Backup and restore, admin only (docs/PRODUCT.md §7.10; docs/BACKUP.md):
 *
 * - `POST /admin/backup/create {modules}` (or `GET ?modules=a,b`) answers the backup file itself
 *   as a download (`cubby-backup-YYYYMMDD-HHmmss.json`), not an envelope;
 * - `POST /admin/backup/validate` checks a file and answers what it holds, changing nothing;
 * - `POST /admin/backup/restore?mode=overwrite|merge` restores it and answers the report;
 * - `GET /admin/backup/status` shows a restore under way.
 *
 * - `GET /admin/backup/modules` lists the modules and what each needs in the same backup;
 * - `GET`/`PUT /admin/backup/schedule` reads and sets the backup schedule, `GET
 *   /admin/backup/runs` lists its runs, `POST /admin/backup/runs` runs it now (docs/BACKUP.md).
 *
 * A file is sent as the raw JSON body (`curl --data-binary @file.json`) or as the `file` (or
 * CloudPaste's `backup_file`) field of a multipart form (with an optional `mode` field).
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson, validate } from "../http/validate.ts";
import { requireAdmin } from "../http/middleware.ts";
import { bodyLimit, readBodyBytes } from "../http/body.ts";
import { idempotent } from "../http/idempotency.ts";
import { AppError } from "../errors.ts";
import {
  BACKUP_MODULES,
  BackupCreateSchema,
  MODULE_DEPENDENCIES,
  RestoreModeSchema,
} from "../../shared/schemas/backup.ts";
import { BackupScheduleSchema } from "../../shared/schemas/backup_schedule.ts";

/** The largest backup file a restore accepts. */
export const MAX_BACKUP_BYTES = 256 * 1024 * 1024;

const backupBodyLimit = bodyLimit(MAX_BACKUP_BYTES);

export const RunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
});

export const ModulesQuerySchema = z.object({
  modules: z.string().max(500).transform((s) => s.split(",").map((m) => m.trim()).filter(Boolean))
    .pipe(BackupCreateSchema.out.shape.modules),
});

/** The file text and the form's `mode` field; throws 400 backup_file_required. */
async function readBackupBody(c: Context<AppEnv>): Promise<{ text: string; mode?: string }> {
  const type = c.req.header("content-type") ?? "";
  const bytes = await readBodyBytes(c); // within the limit and the idle timeout
  let text = "";
  let mode: string | undefined;
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": type } }).formData();
    } catch {
      throw new AppError("backup_parse_failed", 400);
    }
    const file = form.get("file") ?? form.get("backup_file");
    if (file instanceof File) text = await file.text();
    else if (typeof file === "string") text = file;
    const field = form.get("mode");
    if (typeof field === "string" && field) mode = field;
  } else {
    text = new TextDecoder().decode(bytes);
  }
  if (!text.trim()) throw new AppError("backup_file_required", 400);
  return { text, mode };
}

export function backupRoutes() {
  const app = new Hono<AppEnv>();
  app.use("/admin/backup/*", requireAdmin);

  const download = async (c: Context<AppEnv>, modules: (typeof BACKUP_MODULES)[number][]) => {
    const { file, filename } = await c.get("services").backup.create(modules);
    return c.body(JSON.stringify(file, null, 2), 200, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  };

  // Builds a download and changes nothing: never idempotent (nor is validate).
  app.post("/admin/backup/create", async (c) => {
    const { modules } = await readJson(c, BackupCreateSchema);
    return await download(c, modules);
  });

  app.get("/admin/backup/create", async (c) => {
    const { modules } = validate(ModulesQuerySchema, { modules: c.req.query("modules") ?? "" });
    return await download(c, modules);
  });

  app.post("/admin/backup/validate", backupBodyLimit, async (c) => {
    const { text } = await readBackupBody(c);
    return ok(c, await c.get("services").backup.inspect(text));
  });

  app.post("/admin/backup/restore", backupBodyLimit, idempotent(), async (c) => {
    const { text, mode: field } = await readBackupBody(c);
    const mode = validate(RestoreModeSchema, c.req.query("mode") ?? field);
    return ok(c, await c.get("services").backup.restore(text, mode));
  });

  app.get("/admin/backup/modules", (c) =>
    ok(c, {
      modules: BACKUP_MODULES.map((id) => ({ id, dependencies: MODULE_DEPENDENCIES[id] })),
    }));

  app.get("/admin/backup/status", async (c) => ok(c, await c.get("services").backup.status()));

  // Scheduled backups: the schedule, its runs, and a run started by hand.
  app.get(
    "/admin/backup/schedule",
    async (c) => ok(c, await c.get("services").scheduledBackups.view()),
  );

  app.put("/admin/backup/schedule", idempotent(), async (c) => {
    const input = await readJson(c, BackupScheduleSchema);
    return ok(c, await c.get("services").scheduledBackups.setSchedule(input));
  });

  app.get("/admin/backup/runs", async (c) => {
    const { limit } = validate(RunsQuerySchema, c.req.query());
    return ok(c, await c.get("services").scheduledBackups.runs(limit));
  });

  app.post(
    "/admin/backup/runs",
    idempotent(),
    async (c) => ok(c, await c.get("services").scheduledBackups.runNow(), 201),
  );

  return app;
}
