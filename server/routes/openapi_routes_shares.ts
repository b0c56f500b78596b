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
import { z } from "zod";
import * as D from "./openapi_data.ts";
import * as files from "../../shared/schemas/files.ts";
import { UrlSchema } from "./url_upload.ts";
import {
  del,
  FILE,
  get,
  getHead,
  json,
  post,
  put,
  type RouteAuth,
  type RouteDoc,
  s3AndUrl,
  STORED,
  TEXT,
  withErrors,
} from "./openapi_route_types.ts";

/**
 * The answers of a share's password check: 401 wrong_password, 403 password_required, 410
 * expired or used up, 429 too many wrong passwords.
 */
const PASSWORD = [401, 403, 410, 429];
/** The password of a locked share, in the query (raw text and direct links). */
const SharePasswordQuery = z.object({ password: z.string().optional() });
/** A view token from a counted open (`t`), or the share's password. */
const ShareAccessQuery = SharePasswordQuery.extend({ t: z.string().optional() });

/**
 * Opening a share of `kind` at `path` (a counted view; 403 password_required when locked), and
 * opening a locked one by posting its password to `verifyPath`: both answer the share as `data`.
 */
function openRoutes(
  kind: string,
  path: string,
  verifyPath: string,
  auth: RouteAuth,
  data: z.ZodType,
  verify: z.ZodType,
): RouteDoc[] {
  return [
    get(path, `Open a ${kind} (counts a view); 403 password_required when locked`, auth, {
      data,
      errors: [403, 410],
    }),
    post(verifyPath, `Open a locked ${kind} with its password`, auth, {
      body: json(verify),
      data,
      errors: PASSWORD,
    }),
  ];
}

const ROUTES: RouteDoc[] = [
  post(
    "/paste",
    "Create a paste: JSON, or a text/plain or urlencoded body with options in the query; Accept: text/plain answers the URL",
    TEXT,
    {
      body: { kind: "json", schema: PasteCreateSchema, alsoText: true },
      query: PasteCreateSchema,
      status: 201,
      data: D.Paste,
      errors: [409, 413],
    },
  ),
  ...openRoutes("paste", "/paste/:slug", "/paste/:slug", "public", D.Paste, PasteOpenSchema),
  get("/raw/:slug", "A paste's raw text", "public", {
    query: SharePasswordQuery,
    bytes: "text/plain",
    plainErrors: true,
    errors: PASSWORD,
  }),
  get("/pastes", "List pastes the caller manages", TEXT, {
    query: PasteListQuerySchema,
    data: D.PasteListPage,
  }),
  del("/pastes/batch-delete", "Delete pastes", TEXT, {
    body: json(PasteBatchDeleteSchema),
    data: D.BatchDeleted,
  }),
  post("/pastes/batch-delete", "Delete pastes (offline replay)", TEXT, {
    body: json(PasteBatchDeleteSchema),
    data: D.BatchDeleted,
  }),
  post("/pastes/clear-expired", "Delete expired and used-up pastes", TEXT, {
    body: json(PasteClearExpiredSchema),
  }),
  get("/pastes/:id", "One paste by id or slug, for its manager", TEXT, { data: D.Paste }),
  put("/pastes/:id", "Edit a paste by id or slug", TEXT, {
    body: json(PasteUpdateSchema),
    data: D.Paste,
    errors: [409, 413],
  }),

  get("/system/max-upload-size", "The upload size limit", "public"),
  post("/upload", "Upload a file as a multipart form (expires_in in hours)", FILE, {
    body: { kind: "multipart", schema: files.FileShareOptionsSchema, file: "file" },
    status: 201,
    data: D.FileShare,
    errors: STORED,
  }),
  put(
    "/upload-direct/:filename",
    "Upload the raw body as a file; share options in the query (expires_in in hours)",
    FILE,
    {
      query: files.FileShareOptionsSchema,
      body: { kind: "binary" },
      status: 201,
      data: D.FileShare,
      errors: STORED,
    },
  ),
  ...s3AndUrl("presign", "Presign an upload", files.PresignSchema, { errors: STORED }),
  ...s3AndUrl("commit", "Commit a presigned upload", files.CommitSchema, {
    status: 201,
    data: D.FileShare,
    errors: STORED,
  }),
  ...s3AndUrl("multipart/init", "Start a multipart upload", files.PresignSchema, {
    errors: STORED,
  }),
  ...s3AndUrl("multipart/complete", "Complete a multipart upload", files.MultipartCompleteSchema, {
    status: 201,
    data: D.FileShare,
    errors: STORED,
  }),
  ...s3AndUrl("multipart/abort", "Abort a multipart upload", files.FileIdSchema, {
    errors: [404],
  }),
  post("/s3/multipart/list-parts", "Parts uploaded so far", FILE, {
    body: json(files.FileIdSchema),
  }),
  post("/s3/multipart/refresh-urls", "Fresh part URLs", FILE, {
    body: json(files.RefreshUrlsSchema),
  }),
  get("/files", "List file shares", FILE, {
    query: files.FileListQuerySchema,
    data: D.FileShareList,
  }),
  del("/files/batch-delete", "Delete file shares", FILE, {
    body: json(files.BatchDeleteFilesSchema),
  }),
  post("/files/batch-delete", "Delete file shares (offline replay)", FILE, {
    body: json(files.BatchDeleteFilesSchema),
  }),
  post("/files/clear-expired", "Delete expired and used-up file shares", FILE, {
    body: json(PasteClearExpiredSchema),
  }),
  get("/files/:id", "One file share", FILE, { data: D.FileShare }),
  put("/files/:id", "Edit a file share", FILE, {
    body: json(files.FileUpdateSchema),
    data: D.FileShare,
  }),
  ...openRoutes(
    "file share",
    "/public/files/:slug",
    "/public/files/:slug/verify",
    "optional",
    D.PublicFileShare,
    files.VerifySchema,
  ),
  get("/office-preview/:slug", "Links for the online Office viewers", "public", {
    query: ShareAccessQuery,
    errors: PASSWORD,
  }),
  ...getHead("/file-view/:slug", "A file share's bytes, inline", "public", {
    query: ShareAccessQuery,
    redirect: true,
    errors: [...PASSWORD, 502],
  }),
  ...getHead("/file-download/:slug", "A file share's bytes, as a download", "public", {
    query: ShareAccessQuery,
    redirect: true,
    errors: [...PASSWORD, 502],
  }),
  ...getHead("/storage/local/:configId/*", "Read from local storage by signed URL", "signed"),
  put("/storage/local/:configId/*", "Write to local storage by signed URL", "signed", {
    body: { kind: "binary" },
    bytes: "*/*",
    plainErrors: true,
    errors: [413, 507],
  }),
  post("/url/info", "Name, size and type behind a URL", FILE, {
    body: json(UrlSchema),
    errors: [502],
  }),
  get("/url/proxy", "Fetch a URL through the server", FILE, {
    query: UrlSchema,
    bytes: "application/octet-stream",
    plainErrors: true,
    errors: [413, 502],
  }),
  post("/url/cancel", "Drop a pending upload", FILE, { body: json(files.FileIdSchema) }),
];

/**
 * Pastes, file shares, uploads (from a file or a URL) and signed local-storage URLs. An upload
 * may name a storage config or an upload in progress that does not exist (404).
 */
export const SHARE_ROUTES: RouteDoc[] = withErrors(
  ROUTES,
  [404],
  (r) =>
    /^\/(upload|upload-direct\/:filename|s3\/.*|url\/(cancel|presign|commit|multipart\/.*))$/.test(
      r.path,
    ),
);
