/**
 * The route table of the OpenAPI document: every /api route with its auth and the zod schemas
 * its handler validates with (the same objects, imported from the route files and shared/).
 * A test checks that every route Hono serves under /api is listed here.
 */
import { z } from "zod";
import { ChangePasswordSchema, LoginSchema } from "../../shared/schemas/auth.ts";
import { ApiKeyCreateSchema, ApiKeyUpdateSchema } from "../../shared/schemas/api_keys.ts";
import {
  PasteBatchDeleteSchema,
  PasteClearExpiredSchema,
  PasteCreateSchema,
  PasteListQuerySchema,
  PasteOpenSchema,
  PasteUpdateSchema,
} from "../../shared/schemas/pastes.ts";
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
  VerifySchema,
} from "../../shared/schemas/files.ts";
import {
  StorageConfigCreateSchema,
  StorageConfigUpdateSchema,
} from "../../shared/schemas/storage_configs.ts";
import { MountCreateSchema, MountUpdateSchema } from "../../shared/schemas/mounts.ts";
import {
  BatchCopyCommitSchema,
  BatchCopySchema,
  DeleteTaskSchema,
  DownloadTaskSchema,
} from "../../shared/schemas/tasks.ts";
import { BackupCreateSchema } from "../../shared/schemas/backup.ts";
import {
  BatchRemoveBody,
  CreateShareBody,
  LinkQuery,
  ListQuery,
  PathOnly,
  RenameBody,
  UpdateBody,
  UploadFields,
} from "../routes/fs.ts";
import * as fsUp from "../routes/fs_uploads.ts";
import { MountRef, SearchQuery } from "../routes/fs_search.ts";
import { ProxyLinkQuery } from "../routes/proxy.ts";
import { UrlSchema } from "../routes/url_upload.ts";
import { ListQuerySchema, UpdateQuerySchema } from "../routes/settings.ts";
import { ModulesQuerySchema } from "../routes/backup.ts";

/**
 * Who may call a route: `public` anyone; `optional` anyone, and a login changes the answer;
 * `login` any admin or key; `admin` the admin session only; `key:<BITS>` the admin or a key
 * holding those permission bits; `mount` the admin or a key with any mount bit; `signed` a
 * signed URL (query `sig`/`exp`) instead of a login.
 */
export type RouteAuth = "public" | "optional" | "login" | "admin" | "mount" | "signed" | string;

/** The body a route reads. */
export type RouteBody =
  | { kind: "json"; schema: z.ZodType }
  | { kind: "multipart"; schema: z.ZodType; file: string }
  | { kind: "binary" }
  | { kind: "backup" };

export type RouteDoc = {
  method: "get" | "post" | "put" | "delete" | "head";
  /** Hono's path under /api (`:param`, `*` for the rest of a path). */
  path: string;
  summary: string;
  auth: RouteAuth;
  query?: z.ZodType;
  body?: RouteBody;
  /** Success status; 200 when absent. */
  status?: number;
  /** The reply is bytes (or plain text), not the JSON envelope. */
  bytes?: boolean;
};

const json = (schema: z.ZodType): RouteBody => ({ kind: "json", schema });
/** A settings save: key → value; each value is checked against the settings metadata table. */
const SettingsBody = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const TEXT = "key:TEXT";
const FILE = "key:FILE_SHARE";

/** Both methods of a route that answers GET and HEAD alike. */
function getHead(path: string, summary: string, auth: RouteAuth, query?: z.ZodType): RouteDoc[] {
  return [
    { method: "get", path, summary, auth, query, bytes: true },
    { method: "head", path, summary: `${summary} (headers only)`, auth, query, bytes: true },
  ];
}

/** The same route under the /s3 and /url prefixes (uploads from a file or from a URL). */
function s3AndUrl(suffix: string, summary: string, body: z.ZodType, status = 200): RouteDoc[] {
  return ["s3", "url"].map((p) => ({
    method: "post" as const,
    path: `/${p}/${suffix}`,
    summary: `${summary} (${p === "s3" ? "file" : "from a URL"})`,
    auth: FILE,
    body: json(body),
    status,
  }));
}

export const ROUTE_DOCS: RouteDoc[] = [
  { method: "get", path: "/openapi.json", summary: "This OpenAPI document", auth: "public" },
  { method: "get", path: "/health", summary: "Health check", auth: "public" },
  { method: "get", path: "/version", summary: "App version", auth: "public" },
  {
    method: "post",
    path: "/admin/login",
    summary: "Admin login",
    auth: "public",
    body: json(LoginSchema),
  },
  {
    method: "post",
    path: "/admin/logout",
    summary: "Logout; idempotent (200 for an unknown or expired token)",
    auth: "optional",
  },
  { method: "get", path: "/test/admin-token", summary: "Validate the admin token", auth: "admin" },
  {
    method: "get",
    path: "/test/api-key",
    summary: "Validate an API key: permissions (object and bitmask) and key_info",
    auth: "login",
  },
  {
    method: "post",
    path: "/admin/change-password",
    summary: "Change the admin username or password",
    auth: "admin",
    body: json(ChangePasswordSchema),
  },
  {
    method: "get",
    path: "/admin/api-keys",
    summary: "List API keys (permissions as object and bitmask)",
    auth: "admin",
  },
  {
    method: "post",
    path: "/admin/api-keys",
    summary: "Create an API key; permissions as object or bitmask",
    auth: "admin",
    body: json(ApiKeyCreateSchema),
    status: 201,
  },
  {
    method: "put",
    path: "/admin/api-keys/:id",
    summary: "Update an API key",
    auth: "admin",
    body: json(ApiKeyUpdateSchema),
  },
  { method: "delete", path: "/admin/api-keys/:id", summary: "Delete an API key", auth: "admin" },

  {
    method: "post",
    path: "/paste",
    summary:
      "Create a paste: JSON, or a text/plain or urlencoded body with options in the query; Accept: text/plain answers the URL",
    auth: TEXT,
    body: json(PasteCreateSchema),
    query: PasteCreateSchema,
    status: 201,
  },
  {
    method: "get",
    path: "/paste/:slug",
    summary: "Open a paste (counts a view); 403 password_required when locked",
    auth: "public",
  },
  {
    method: "post",
    path: "/paste/:slug",
    summary: "Open a locked paste with its password",
    auth: "public",
    body: json(PasteOpenSchema),
  },
  { method: "get", path: "/raw/:slug", summary: "A paste's raw text", auth: "public", bytes: true },
  {
    method: "get",
    path: "/pastes",
    summary: "List pastes the caller manages",
    auth: TEXT,
    query: PasteListQuerySchema,
  },
  {
    method: "delete",
    path: "/pastes/batch-delete",
    summary: "Delete pastes",
    auth: TEXT,
    body: json(PasteBatchDeleteSchema),
  },
  {
    method: "post",
    path: "/pastes/batch-delete",
    summary: "Delete pastes (offline replay)",
    auth: TEXT,
    body: json(PasteBatchDeleteSchema),
  },
  {
    method: "post",
    path: "/pastes/clear-expired",
    summary: "Delete expired and used-up pastes",
    auth: TEXT,
    body: json(PasteClearExpiredSchema),
  },
  {
    method: "get",
    path: "/pastes/:id",
    summary: "One paste by id or slug, for its manager",
    auth: TEXT,
  },
  {
    method: "put",
    path: "/pastes/:id",
    summary: "Edit a paste by id or slug",
    auth: TEXT,
    body: json(PasteUpdateSchema),
  },

  {
    method: "get",
    path: "/system/max-upload-size",
    summary: "The upload size limit",
    auth: "public",
  },
  {
    method: "post",
    path: "/upload",
    summary: "Upload a file as a multipart form (expires_in in hours)",
    auth: FILE,
    body: { kind: "multipart", schema: FileShareOptionsSchema, file: "file" },
    status: 201,
  },
  {
    method: "put",
    path: "/upload-direct/:filename",
    summary: "Upload the raw body as a file; share options in the query (expires_in in hours)",
    auth: FILE,
    query: FileShareOptionsSchema,
    body: { kind: "binary" },
    status: 201,
  },
  ...s3AndUrl("presign", "Presign an upload", PresignSchema),
  ...s3AndUrl("commit", "Commit a presigned upload", CommitSchema, 201),
  ...s3AndUrl("multipart/init", "Start a multipart upload", PresignSchema),
  ...s3AndUrl("multipart/complete", "Complete a multipart upload", MultipartCompleteSchema, 201),
  ...s3AndUrl("multipart/abort", "Abort a multipart upload", FileIdSchema),
  {
    method: "post",
    path: "/s3/multipart/list-parts",
    summary: "Parts uploaded so far",
    auth: FILE,
    body: json(FileIdSchema),
  },
  {
    method: "post",
    path: "/s3/multipart/refresh-urls",
    summary: "Fresh part URLs",
    auth: FILE,
    body: json(RefreshUrlsSchema),
  },
  {
    method: "get",
    path: "/files",
    summary: "List file shares",
    auth: FILE,
    query: FileListQuerySchema,
  },
  {
    method: "delete",
    path: "/files/batch-delete",
    summary: "Delete file shares",
    auth: FILE,
    body: json(BatchDeleteFilesSchema),
  },
  {
    method: "post",
    path: "/files/batch-delete",
    summary: "Delete file shares (offline replay)",
    auth: FILE,
    body: json(BatchDeleteFilesSchema),
  },
  { method: "get", path: "/files/:id", summary: "One file share", auth: FILE },
  {
    method: "put",
    path: "/files/:id",
    summary: "Edit a file share",
    auth: FILE,
    body: json(FileUpdateSchema),
  },
  {
    method: "get",
    path: "/public/files/:slug",
    summary: "Open a file share (counts a view); 403 password_required when locked",
    auth: "optional",
  },
  {
    method: "post",
    path: "/public/files/:slug/verify",
    summary: "Open a locked file share with its password",
    auth: "optional",
    body: json(VerifySchema),
  },
  {
    method: "get",
    path: "/office-preview/:slug",
    summary: "Links for the online Office viewers",
    auth: "public",
  },
  ...getHead("/file-view/:slug", "A file share's bytes, inline", "public"),
  ...getHead("/file-download/:slug", "A file share's bytes, as a download", "public"),
  ...getHead("/storage/local/:configId/*", "Read from local storage by signed URL", "signed"),
  {
    method: "put",
    path: "/storage/local/:configId/*",
    summary: "Write to local storage by signed URL",
    auth: "signed",
    body: { kind: "binary" },
    bytes: true,
  },
  {
    method: "post",
    path: "/url/info",
    summary: "Name, size and type behind a URL",
    auth: FILE,
    body: json(UrlSchema),
  },
  {
    method: "get",
    path: "/url/proxy",
    summary: "Fetch a URL through the server",
    auth: FILE,
    query: UrlSchema,
    bytes: true,
  },
  {
    method: "post",
    path: "/url/cancel",
    summary: "Drop a pending upload",
    auth: FILE,
    body: json(FileIdSchema),
  },

  { method: "get", path: "/s3-configs", summary: "List storage configs", auth: FILE },
  {
    method: "post",
    path: "/s3-configs",
    summary: "Create a storage config (provider_type aliases accepted)",
    auth: "admin",
    body: json(StorageConfigCreateSchema),
    status: 201,
  },
  { method: "get", path: "/s3-configs/:id", summary: "One storage config", auth: FILE },
  {
    method: "put",
    path: "/s3-configs/:id",
    summary: "Update a storage config",
    auth: "admin",
    body: json(StorageConfigUpdateSchema),
  },
  { method: "delete", path: "/s3-configs/:id", summary: "Delete a storage config", auth: "admin" },
  {
    method: "put",
    path: "/s3-configs/:id/set-default",
    summary: "Make a storage config the default",
    auth: "admin",
  },
  { method: "post", path: "/s3-configs/:id/test", summary: "Test a storage config", auth: "admin" },

  { method: "get", path: "/mount/list", summary: "List mounts the caller may see", auth: "mount" },
  {
    method: "post",
    path: "/mount/create",
    summary: "Create a mount",
    auth: "admin",
    body: json(MountCreateSchema),
    status: 201,
  },
  {
    method: "put",
    path: "/mount/:id",
    summary: "Update a mount",
    auth: "admin",
    body: json(MountUpdateSchema),
  },
  { method: "delete", path: "/mount/:id", summary: "Delete a mount", auth: "admin" },

  {
    method: "get",
    path: "/fs/list",
    summary: "List a folder",
    auth: "key:MOUNT_VIEW",
    query: ListQuery,
  },
  { method: "get", path: "/fs/get", summary: "One entry", auth: "key:MOUNT_VIEW", query: PathOnly },
  ...getHead("/fs/download", "A mount file's bytes", "key:MOUNT_VIEW", PathOnly),
  {
    method: "post",
    path: "/fs/upload",
    summary: "Upload into a folder (multipart form)",
    auth: "key:MOUNT_UPLOAD",
    body: { kind: "multipart", schema: UploadFields, file: "file" },
    status: 201,
  },
  {
    method: "post",
    path: "/fs/mkdir",
    summary: "Create a folder",
    auth: "key:MOUNT_UPLOAD",
    body: json(PathOnly),
    status: 201,
  },
  {
    method: "post",
    path: "/fs/update",
    summary: "Write a text file",
    auth: "key:MOUNT_UPLOAD",
    body: json(UpdateBody),
  },
  {
    method: "delete",
    path: "/fs/batch-remove",
    summary: "Delete entries",
    auth: "key:MOUNT_DELETE",
    body: json(BatchRemoveBody),
  },
  {
    method: "post",
    path: "/fs/batch-remove",
    summary: "Delete entries",
    auth: "key:MOUNT_DELETE",
    body: json(BatchRemoveBody),
  },
  {
    method: "post",
    path: "/fs/rename",
    summary: "Rename or move an entry",
    auth: "key:MOUNT_RENAME",
    body: json(RenameBody),
  },
  {
    method: "get",
    path: "/fs/file-link",
    summary: "A temporary link to a file (expires_in in SECONDS)",
    auth: "key:MOUNT_VIEW",
    query: LinkQuery,
  },
  {
    method: "post",
    path: "/fs/create-share",
    summary: "Share a mount file (expires_in in hours)",
    auth: "key:MOUNT_VIEW|FILE_SHARE",
    body: json(CreateShareBody),
    status: 201,
  },
  {
    method: "get",
    path: "/fs/proxy-link",
    summary: "A signed proxy link to a mount file",
    auth: "key:MOUNT_VIEW",
    query: ProxyLinkQuery,
  },
  ...getHead("/p/*", "A mount file through a signed proxy link", "signed"),
  {
    method: "post",
    path: "/fs/multipart/init",
    summary: "Start a multipart upload into a mount",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.InitSchema),
  },
  {
    method: "post",
    path: "/fs/multipart/complete",
    summary: "Complete it",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.CompleteSchema),
    status: 201,
  },
  {
    method: "post",
    path: "/fs/multipart/abort",
    summary: "Abort it",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.UploadRefSchema),
  },
  {
    method: "post",
    path: "/fs/multipart/list-uploads",
    summary: "Unfinished uploads under a path",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.ListUploadsSchema),
  },
  {
    method: "post",
    path: "/fs/multipart/list-parts",
    summary: "Parts uploaded so far",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.UploadRefSchema),
  },
  {
    method: "post",
    path: "/fs/multipart/refresh-urls",
    summary: "Fresh part URLs",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.RefreshSchema),
  },
  {
    method: "post",
    path: "/fs/presign",
    summary: "Presign a PUT into a mount ({path: file} or {path: folder, fileName, fileSize})",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.PresignSchema),
  },
  {
    method: "post",
    path: "/fs/presign/commit",
    summary: "Confirm a presigned PUT ({path} or {targetPath, mountId, fileSize})",
    auth: "key:MOUNT_UPLOAD",
    body: json(fsUp.CommitSchema),
    status: 201,
  },
  {
    method: "post",
    path: "/fs/batch-copy",
    summary: "Copy entries (a background task)",
    auth: "key:MOUNT_COPY",
    body: json(BatchCopySchema),
  },
  {
    method: "post",
    path: "/fs/batch-copy-commit",
    summary: "Commit a cross-storage copy",
    auth: "key:MOUNT_COPY",
    body: json(BatchCopyCommitSchema),
  },
  {
    method: "post",
    path: "/fs/tasks/delete",
    summary: "Delete entries as a background task",
    auth: "key:MOUNT_DELETE",
    body: json(DeleteTaskSchema),
  },
  {
    method: "post",
    path: "/fs/tasks/download",
    summary: "Download URLs into a mount as a task",
    auth: "key:MOUNT_UPLOAD",
    body: json(DownloadTaskSchema),
  },
  { method: "get", path: "/fs/tasks", summary: "List tasks", auth: "mount" },
  { method: "get", path: "/fs/tasks/:id", summary: "One task", auth: "mount" },
  { method: "post", path: "/fs/tasks/:id/cancel", summary: "Cancel a task", auth: "mount" },
  { method: "post", path: "/fs/tasks/:id/retry", summary: "Retry a task", auth: "mount" },
  { method: "post", path: "/fs/tasks/clear", summary: "Clear finished tasks", auth: "mount" },
  {
    method: "get",
    path: "/fs/search",
    summary: "Search mounts",
    auth: "key:MOUNT_VIEW",
    query: SearchQuery,
  },
  {
    method: "post",
    path: "/fs/search/rebuild",
    summary: "Rebuild a mount's search index",
    auth: "admin",
    body: json(MountRef),
  },
  {
    method: "get",
    path: "/fs/search/rebuild",
    summary: "State of a rebuild",
    auth: "admin",
    query: MountRef,
  },

  { method: "get", path: "/admin/dashboard/stats", summary: "Dashboard totals", auth: "admin" },
  { method: "get", path: "/admin/cache/stats", summary: "Cache statistics", auth: "admin" },
  { method: "post", path: "/admin/cache/clear", summary: "Clear every cache", auth: "admin" },
  {
    method: "post",
    path: "/user/cache/clear",
    summary: "Clear the caller's caches",
    auth: "login",
  },
  {
    method: "get",
    path: "/public/site-config",
    summary: "Public site settings and preview lists",
    auth: "public",
  },
  {
    method: "get",
    path: "/admin/settings",
    summary: "Settings; group=4 (site) is public, every other group admin-only",
    auth: "optional",
    query: ListQuerySchema,
  },
  { method: "get", path: "/admin/settings/groups", summary: "Settings groups", auth: "admin" },
  { method: "get", path: "/admin/settings/metadata", summary: "Settings metadata", auth: "admin" },
  {
    method: "put",
    path: "/admin/settings/group/:group",
    summary: "Save a settings group (CloudPaste names accepted)",
    auth: "admin",
    query: UpdateQuerySchema,
    body: json(SettingsBody),
  },
  {
    method: "get",
    path: "/admin/backup/modules",
    summary: "Backup modules and their dependencies",
    auth: "admin",
  },
  {
    method: "post",
    path: "/admin/backup/create",
    summary: "Download a backup ({modules} or {backup_type, selected_modules})",
    auth: "admin",
    body: json(BackupCreateSchema),
    bytes: true,
  },
  {
    method: "get",
    path: "/admin/backup/create",
    summary: "Download a backup",
    auth: "admin",
    query: ModulesQuerySchema,
    bytes: true,
  },
  {
    method: "post",
    path: "/admin/backup/validate",
    summary: "Check a backup file",
    auth: "admin",
    body: { kind: "backup" },
  },
  {
    method: "post",
    path: "/admin/backup/restore",
    summary: "Restore a backup file (field file or backup_file)",
    auth: "admin",
    body: { kind: "backup" },
  },
  { method: "get", path: "/admin/backup/status", summary: "A restore under way", auth: "admin" },
];
