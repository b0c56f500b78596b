/** Uploads and file management (docs/PRODUCT.md §7.3). Every upload path streams. */
import { Hono } from "hono";
import type { AppEnv } from "../http/types.ts";
import { ok, wantsPlainText } from "../http/envelope.ts";
import { readJson, readQuery, validate } from "../http/validate.ts";
import { requirePermission } from "../http/middleware.ts";
import { readUploadForm } from "../http/upload_form.ts";
import { spoolDirOf } from "../storage/temp_files.ts";
import { Permission } from "../../shared/permissions.ts";
import { MAX_UPLOAD_SIZE_FALLBACK_MB } from "../../shared/constants.ts";
import {
  BatchDeleteFilesSchema,
  CommitSchema,
  FileIdSchema,
  FileListQuerySchema,
  FileShareOptionsSchema,
  FileUpdateSchema,
  MultipartCompleteSchema,
  PresignSchema,
  RefreshUrlsSchema,
} from "../../shared/schemas/files.ts";
import { AppError } from "../errors.ts";
import { PasteClearExpiredSchema } from "../../shared/schemas/pastes.ts";
import { idempotent } from "../http/idempotency.ts";

/** The form's `size` field as a byte count, or undefined when absent or not a count. */
function sizeField(value: string | undefined): number | undefined {
  const size = value ? Number(value) : undefined;
  return Number.isSafeInteger(size) && size! >= 0 ? size : undefined;
}

function absoluteUrl(reqUrl: string, path: string): string {
  return new URL(path, reqUrl).toString();
}

export function fileRoutes() {
  const app = new Hono<AppEnv>();
  const files = (c: { get: (k: "services") => AppEnv["Variables"]["services"] }) =>
    c.get("services").files;
  const canShare = requirePermission(Permission.FILE_SHARE);

  app.get("/system/max-upload-size", async (c) => {
    const size = await c.get("services").settings.getMaxUploadSize();
    const bytes = await c.get("services").settings.getMaxUploadBytes();
    return ok(c, {
      max_upload_size: size.unit === "MB" ? size.value : bytes / 1024 / 1024 ||
        MAX_UPLOAD_SIZE_FALLBACK_MB,
      value: size.value,
      unit: size.unit,
      bytes,
    });
  });

  app.post("/upload", canShare, idempotent({ upload: "form" }), async (c) => {
    const services = c.get("services");
    // Only the storage config decides where the bytes go; every other field may follow the
    // file, and the share is recorded once the whole form was read (upload_form.ts).
    const form = await readUploadForm(c.req.raw, {
      decides: ["s3_config_id"],
      spoolDir: spoolDirOf(services.config.dataDir),
      maxBytes: await services.settings.getMaxUploadBytes(),
    });
    try {
      const opts = validate(FileShareOptionsSchema, form.fields);
      const view = await files(c).upload(
        {
          body: form.file.stream,
          filename: form.file.filename,
          mimetype: form.file.mimeType,
          size: sizeField(form.fields.size),
          late: form.spooled ? undefined : async () => {
            const all = await form.complete;
            return {
              opts: validate(FileShareOptionsSchema, all),
              filename: all.filename,
              mimetype: all.mimetype || form.file.mimeType,
              size: sizeField(all.size),
            };
          },
        },
        opts,
        c.get("auth"),
      );
      return ok(c, { ...view, url: absoluteUrl(c.req.url, view.url) }, 201);
    } catch (err) {
      throw form.error() ?? err;
    } finally {
      await form.dispose();
    }
  });

  app.put("/upload-direct/:filename", canShare, idempotent({ upload: "raw" }), async (c) => {
    const body = c.req.raw.body;
    if (!body) throw new AppError("file_required", 400);
    const opts = validate(FileShareOptionsSchema, c.req.query());
    const length = c.req.header("content-length");
    const view = await files(c).upload(
      {
        body,
        filename: c.req.param("filename"),
        mimetype: c.req.query("mimetype") ?? c.req.header("content-type"),
        size: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
      },
      opts,
      c.get("auth"),
    );
    const url = absoluteUrl(c.req.url, view.url);
    // `Accept: text/plain` gets the share URL alone, as POST /api/paste does (ShareX, curl).
    if (wantsPlainText(c)) return c.text(`${url}\n`, 201);
    return ok(c, { ...view, url }, 201);
  });

  app.on("POST", ["/s3/presign", "/url/presign"], canShare, idempotent(), async (c) => {
    const input = await readJson(c, PresignSchema);
    const res = await files(c).presign(input, c.get("auth"));
    return ok(c, { ...res, upload_url: absoluteUrl(c.req.url, res.upload_url) });
  });

  app.on("POST", ["/s3/commit", "/url/commit"], canShare, idempotent(), async (c) => {
    const input = await readJson(c, CommitSchema);
    const view = await files(c).commit(input, c.get("auth"));
    return ok(c, { ...view, url: absoluteUrl(c.req.url, view.url) }, 201);
  });

  const multipart = (c: { get: (k: "services") => AppEnv["Variables"]["services"] }) =>
    c.get("services").multipartUploads;
  const multipartWrite = (path: string) => [`/s3/multipart/${path}`, `/url/multipart/${path}`];
  app.on("POST", multipartWrite("init"), canShare, idempotent(), async (c) => {
    const input = await readJson(c, PresignSchema);
    const res = await multipart(c).init(input, c.get("auth"));
    return ok(c, {
      ...res,
      presigned_urls: res.presigned_urls.map((p) => ({ ...p, url: absoluteUrl(c.req.url, p.url) })),
    });
  });
  // Reads (what was uploaded, fresh part URLs): never idempotent, so never replayed.
  app.post("/s3/multipart/list-parts", canShare, async (c) => {
    const { file_id } = await readJson(c, FileIdSchema);
    return ok(c, await multipart(c).listParts(file_id, c.get("auth")));
  });
  app.post("/s3/multipart/refresh-urls", canShare, async (c) => {
    const { file_id, part_numbers } = await readJson(c, RefreshUrlsSchema);
    const res = await multipart(c).refreshUrls(file_id, part_numbers, c.get("auth"));
    return ok(c, {
      presigned_urls: res.presigned_urls.map((p) => ({ ...p, url: absoluteUrl(c.req.url, p.url) })),
    });
  });
  app.on("POST", multipartWrite("complete"), canShare, idempotent(), async (c) => {
    const input = await readJson(c, MultipartCompleteSchema);
    const view = await multipart(c).complete(input, c.get("auth"));
    return ok(c, { ...view, url: absoluteUrl(c.req.url, view.url) }, 201);
  });
  app.on("POST", multipartWrite("abort"), canShare, idempotent(), async (c) => {
    const { file_id } = await readJson(c, FileIdSchema);
    await multipart(c).abort(file_id, c.get("auth"));
    return ok(c, null);
  });

  app.get("/files", canShare, async (c) => {
    const q = readQuery(c, FileListQuerySchema);
    return ok(c, await files(c).list(c.get("auth"), q));
  });

  app.on(["DELETE", "POST"], "/files/batch-delete", canShare, idempotent(), async (c) => {
    const { ids, delete_mode } = await readJson(c, BatchDeleteFilesSchema);
    return ok(c, await files(c).batchDelete(ids, delete_mode, c.get("auth")));
  });

  // Like POST /pastes/clear-expired: the caller's expired and used-up shares go.
  app.post("/files/clear-expired", canShare, idempotent(), async (c) => {
    await readJson(c, PasteClearExpiredSchema);
    return ok(c, await files(c).clearExpired(c.get("auth")));
  });

  app.get(
    "/files/:id",
    canShare,
    async (c) => ok(c, await files(c).get(c.req.param("id"), c.get("auth"))),
  );

  app.put("/files/:id", canShare, idempotent(), async (c) => {
    const input = await readJson(c, FileUpdateSchema);
    return ok(c, await files(c).update(c.req.param("id"), input, c.get("auth")));
  });

  return app;
}
