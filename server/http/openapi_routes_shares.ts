/**
 * The OpenAPI route table of pastes, file shares and their uploads, each with the zod schemas
 * its handler validates with (the same objects). openapi.ts joins the tables; a test checks
 * that every route Hono serves under /api is listed.
 */
import {
  PasteBatchDeleteSchema,
  PasteClearExpiredSchema,
  PasteCreateSchema,
  PasteListQuerySchema,
  PasteOpenSchema,
  PasteUpdateSchema,
} from "../../shared/schemas/pastes.ts";
import * as files from "../../shared/schemas/files.ts";
import { UrlSchema } from "../routes/url_upload.ts";
import {
  del,
  FILE,
  get,
  getHead,
  json,
  post,
  put,
  type RouteDoc,
  s3AndUrl,
  TEXT,
} from "./openapi_route_types.ts";

/** Pastes, file shares, uploads (from a file or a URL) and signed local-storage URLs. */
export const SHARE_ROUTES: RouteDoc[] = [
  post(
    "/paste",
    "Create a paste: JSON, or a text/plain or urlencoded body with options in the query; Accept: text/plain answers the URL",
    TEXT,
    { body: json(PasteCreateSchema), query: PasteCreateSchema, status: 201 },
  ),
  get("/paste/:slug", "Open a paste (counts a view); 403 password_required when locked", "public"),
  post("/paste/:slug", "Open a locked paste with its password", "public", {
    body: json(PasteOpenSchema),
  }),
  get("/raw/:slug", "A paste's raw text", "public", { bytes: true }),
  get("/pastes", "List pastes the caller manages", TEXT, { query: PasteListQuerySchema }),
  del("/pastes/batch-delete", "Delete pastes", TEXT, { body: json(PasteBatchDeleteSchema) }),
  post("/pastes/batch-delete", "Delete pastes (offline replay)", TEXT, {
    body: json(PasteBatchDeleteSchema),
  }),
  post("/pastes/clear-expired", "Delete expired and used-up pastes", TEXT, {
    body: json(PasteClearExpiredSchema),
  }),
  get("/pastes/:id", "One paste by id or slug, for its manager", TEXT),
  put("/pastes/:id", "Edit a paste by id or slug", TEXT, { body: json(PasteUpdateSchema) }),

  get("/system/max-upload-size", "The upload size limit", "public"),
  post("/upload", "Upload a file as a multipart form (expires_in in hours)", FILE, {
    body: { kind: "multipart", schema: files.FileShareOptionsSchema, file: "file" },
    status: 201,
  }),
  put(
    "/upload-direct/:filename",
    "Upload the raw body as a file; share options in the query (expires_in in hours)",
    FILE,
    { query: files.FileShareOptionsSchema, body: { kind: "binary" }, status: 201 },
  ),
  ...s3AndUrl("presign", "Presign an upload", files.PresignSchema),
  ...s3AndUrl("commit", "Commit a presigned upload", files.CommitSchema, 201),
  ...s3AndUrl("multipart/init", "Start a multipart upload", files.PresignSchema),
  ...s3AndUrl(
    "multipart/complete",
    "Complete a multipart upload",
    files.MultipartCompleteSchema,
    201,
  ),
  ...s3AndUrl("multipart/abort", "Abort a multipart upload", files.FileIdSchema),
  post("/s3/multipart/list-parts", "Parts uploaded so far", FILE, {
    body: json(files.FileIdSchema),
  }),
  post("/s3/multipart/refresh-urls", "Fresh part URLs", FILE, {
    body: json(files.RefreshUrlsSchema),
  }),
  get("/files", "List file shares", FILE, { query: files.FileListQuerySchema }),
  del("/files/batch-delete", "Delete file shares", FILE, {
    body: json(files.BatchDeleteFilesSchema),
  }),
  post("/files/batch-delete", "Delete file shares (offline replay)", FILE, {
    body: json(files.BatchDeleteFilesSchema),
  }),
  post("/files/clear-expired", "Delete expired and used-up file shares", FILE, {
    body: json(PasteClearExpiredSchema),
  }),
  get("/files/:id", "One file share", FILE),
  put("/files/:id", "Edit a file share", FILE, { body: json(files.FileUpdateSchema) }),
  get(
    "/public/files/:slug",
    "Open a file share (counts a view); 403 password_required when locked",
    "optional",
  ),
  post("/public/files/:slug/verify", "Open a locked file share with its password", "optional", {
    body: json(files.VerifySchema),
  }),
  get("/office-preview/:slug", "Links for the online Office viewers", "public"),
  ...getHead("/file-view/:slug", "A file share's bytes, inline", "public"),
  ...getHead("/file-download/:slug", "A file share's bytes, as a download", "public"),
  ...getHead("/storage/local/:configId/*", "Read from local storage by signed URL", "signed"),
  put("/storage/local/:configId/*", "Write to local storage by signed URL", "signed", {
    body: { kind: "binary" },
    bytes: true,
  }),
  post("/url/info", "Name, size and type behind a URL", FILE, { body: json(UrlSchema) }),
  get("/url/proxy", "Fetch a URL through the server", FILE, { query: UrlSchema, bytes: true }),
  post("/url/cancel", "Drop a pending upload", FILE, { body: json(files.FileIdSchema) }),
];
