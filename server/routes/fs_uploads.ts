/**
 * Uploads into mounts straight to storage (docs/PRODUCT.md §7.8: fs/multipart/* and
 * fs/presign): every route needs MOUNT_UPLOAD; paths go through MountService.resolve.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/types.ts";
import { ok } from "../http/envelope.ts";
import { readJson } from "../http/validate.ts";
import { requirePermission } from "../http/middleware.ts";
import { Permission } from "../../shared/permissions.ts";
import { idempotent } from "../http/idempotency.ts";

const Path = z.string().min(1).max(4096);
const UploadId = z.string().min(1).max(1024);
const Size = z.number().int().min(0).max(5 * 1024 ** 4);
const ContentType = z.string().max(255).optional();
const PartNumber = z.number().int().min(1).max(10_000);

/** What an upload does with a file already at its path (see fs/upload). */
const OnConflict = z.enum(["overwrite", "rename", "fail"]).optional();
export const InitSchema = z.object({
  path: Path,
  size: Size,
  contentType: ContentType,
  on_conflict: OnConflict,
});
export const ListUploadsSchema = z.object({ path: Path });
export const UploadRefSchema = z.object({ path: Path, upload_id: UploadId });
export const CompleteSchema = UploadRefSchema.extend({
  parts: z.array(z.object({ partNumber: PartNumber, ETag: z.string().min(1).max(256) }))
    .min(1).max(10_000),
});
export const RefreshSchema = UploadRefSchema.extend({
  part_numbers: z.array(PartNumber).min(1).max(10_000),
});
/** Reads a plain object's fields; anything else is returned as is for zod to refuse. */
function aliased(map: (o: Record<string, unknown>) => Record<string, unknown>) {
  return (v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? map(v as Record<string, unknown>)
      : v;
}

/**
 * `{path: <file>, size}`, or CloudPaste's `{path: <folder>, fileName, fileSize}`: with
 * `fileName` the path is its folder.
 */
export const PresignSchema = z.preprocess(
  aliased((o) => {
    if (typeof o.fileName !== "string" || typeof o.path !== "string") return o;
    const folder = o.path.endsWith("/") ? o.path : `${o.path}/`;
    return { ...o, path: folder + o.fileName, size: o.size ?? o.fileSize };
  }),
  z.object({
    path: Path,
    fileName: z.string().min(1).max(255).regex(/^[^/\\]+$/, "storage_path_invalid").optional(),
    contentType: ContentType,
    size: Size.optional(),
    on_conflict: OnConflict,
  }),
);
/** `{path, size, etag}`, or CloudPaste's `{targetPath, mountId, fileSize}`. */
export const CommitSchema = z.preprocess(
  aliased((o) => ({ ...o, path: o.path ?? o.targetPath, size: o.size ?? o.fileSize })),
  z.object({
    path: Path,
    mountId: z.string().max(64).optional(),
    size: Size.optional(),
    etag: z.string().max(256).optional(),
  }),
);

const uploads = (c: Context<AppEnv>) => c.get("services").fsUploads;

/** An upload's conflict mode, or the file_overwrite_mode setting when the request has none. */
async function withDefaultMode<T extends { on_conflict?: "overwrite" | "rename" | "fail" }>(
  c: Context<AppEnv>,
  input: T,
): Promise<T> {
  return {
    ...input,
    on_conflict: input.on_conflict ?? await c.get("services").settings.getFileOverwriteMode(),
  };
}

/** Local storage signs Cubby-relative URLs; the browser needs them absolute. */
function absolute(c: Context<AppEnv>, url: string): string {
  return new URL(url, c.req.url).toString();
}

function absoluteParts(c: Context<AppEnv>, urls: { partNumber: number; url: string }[]) {
  return urls.map((p) => ({ ...p, url: absolute(c, p.url) }));
}

export function fsUploadRoutes() {
  const app = new Hono<AppEnv>();
  const upload = requirePermission(Permission.MOUNT_UPLOAD);

  app.post("/fs/multipart/init", upload, idempotent(), async (c) => {
    const input = await readJson(c, InitSchema);
    const res = await uploads(c).init(await withDefaultMode(c, input), c.get("auth"));
    return ok(c, { ...res, presigned_urls: absoluteParts(c, res.presigned_urls) });
  });

  app.post("/fs/multipart/complete", upload, idempotent(), async (c) => {
    const { path, upload_id, parts } = await readJson(c, CompleteSchema);
    return ok(c, await uploads(c).complete(path, upload_id, parts, c.get("auth")), 201);
  });

  app.post("/fs/multipart/abort", upload, idempotent(), async (c) => {
    const { path, upload_id } = await readJson(c, UploadRefSchema);
    await uploads(c).abort(path, upload_id, c.get("auth"));
    return ok(c, null);
  });

  // Reads (uploads under way, their parts, fresh part URLs, a signed PUT URL): never
  // idempotent, so never replayed.
  app.post("/fs/multipart/list-uploads", upload, async (c) => {
    const { path } = await readJson(c, ListUploadsSchema);
    return ok(c, await uploads(c).listUploads(path, c.get("auth")));
  });

  app.post("/fs/multipart/list-parts", upload, async (c) => {
    const { path, upload_id } = await readJson(c, UploadRefSchema);
    return ok(c, await uploads(c).listParts(path, upload_id, c.get("auth")));
  });

  app.post("/fs/multipart/refresh-urls", upload, async (c) => {
    const { path, upload_id, part_numbers } = await readJson(c, RefreshSchema);
    const res = await uploads(c).refreshUrls(path, upload_id, part_numbers, c.get("auth"));
    return ok(c, { ...res, presigned_urls: absoluteParts(c, res.presigned_urls) });
  });

  app.post("/fs/presign", upload, async (c) => {
    const input = await readJson(c, PresignSchema);
    const res = await uploads(c).presign(await withDefaultMode(c, input), c.get("auth"));
    // targetPath and mountId are what CloudPaste's client sends back to the commit.
    const url = absolute(c, res.upload_url);
    return ok(c, { ...res, upload_url: url, targetPath: res.path, mountId: res.mount_id });
  });

  app.post("/fs/presign/commit", upload, idempotent(), async (c) => {
    const input = await readJson(c, CommitSchema);
    return ok(c, await uploads(c).commit(input, c.get("auth")), 201);
  });
  return app;
}
