/**
 * The OpenAPI route table of the mount explorer: the filesystem, its uploads, background tasks
 * and search (see openapi_routes_shares.ts).
 */
import { z } from "zod";
import * as D from "./openapi_data.ts";
import {
  BatchCopyCommitSchema,
  BatchCopySchema,
  DeleteTaskSchema,
  DownloadTaskSchema,
} from "../../shared/schemas/tasks.ts";
import {
  BatchRemoveBody,
  CreateShareBody,
  ExistsBody,
  LinkQuery,
  ListQuery,
  PathOnly,
  RenameBody,
  UpdateBody,
  UploadFields,
} from "./fs.ts";
import * as fsUp from "./fs_uploads.ts";
import { MountRef, SearchQuery } from "./fs_search.ts";
import { ProxyLinkQuery } from "./proxy.ts";
import {
  del,
  get,
  getHead,
  json,
  post,
  type RouteDoc,
  STORED,
  withErrors,
} from "./openapi_route_types.ts";

const VIEW = "key:MOUNT_VIEW";
const UPLOAD = "key:MOUNT_UPLOAD";

/** A write that starts a background task: 202 with the task. */
const TASK_STARTED = { status: 202, data: D.TaskStarted };

const ROUTES: RouteDoc[] = [
  // Any mount bit lists the folders above mounts; inside a mount it takes MOUNT_VIEW.
  get("/fs/list", "List a folder", "mount", { query: ListQuery, data: D.FsFolderPage }),
  get("/fs/get", "One entry", VIEW, { query: PathOnly, data: D.FsItem }),
  ...getHead("/fs/download", "A mount file's bytes", VIEW, { query: PathOnly }),
  post("/fs/upload", "Upload into a folder (multipart form)", UPLOAD, {
    body: { kind: "multipart", schema: UploadFields, file: "file" },
    status: 201,
  }),
  post("/fs/exists", "Which of these names a folder holds (before an upload asks)", "mount", {
    body: json(ExistsBody),
  }),
  post("/fs/mkdir", "Create a folder", UPLOAD, {
    body: json(PathOnly),
    status: 201,
    data: D.FsItem,
  }),
  post("/fs/update", "Write a text file", UPLOAD, { body: json(UpdateBody) }),
  del("/fs/batch-remove", "Delete entries", "key:MOUNT_DELETE", { body: json(BatchRemoveBody) }),
  post("/fs/batch-remove", "Delete entries", "key:MOUNT_DELETE", { body: json(BatchRemoveBody) }),
  post("/fs/rename", "Rename or move an entry", "key:MOUNT_RENAME", { body: json(RenameBody) }),
  get("/fs/file-link", "A temporary link to a file (expires_in in SECONDS)", VIEW, {
    query: LinkQuery,
  }),
  post(
    "/fs/create-share",
    "Share a mount file (expires_in in hours)",
    "key:MOUNT_VIEW|FILE_SHARE",
    { body: json(CreateShareBody), status: 201 },
  ),
  get("/fs/proxy-link", "A signed proxy link to a mount file", VIEW, {
    query: ProxyLinkQuery,
  }),
  ...getHead("/p/*", "A mount file through a signed proxy link", "signed", {
    query: z.object({ sign: z.string().optional() }),
    errors: [401],
  }),
  post("/fs/multipart/init", "Start a multipart upload into a mount", UPLOAD, {
    body: json(fsUp.InitSchema),
  }),
  post("/fs/multipart/complete", "Complete it", UPLOAD, {
    body: json(fsUp.CompleteSchema),
    status: 201,
  }),
  post("/fs/multipart/abort", "Abort it", UPLOAD, { body: json(fsUp.UploadRefSchema) }),
  post("/fs/multipart/list-uploads", "Unfinished uploads under a path", UPLOAD, {
    body: json(fsUp.ListUploadsSchema),
  }),
  post("/fs/multipart/list-parts", "Parts uploaded so far", UPLOAD, {
    body: json(fsUp.UploadRefSchema),
  }),
  post("/fs/multipart/refresh-urls", "Fresh part URLs", UPLOAD, {
    body: json(fsUp.RefreshSchema),
  }),
  post(
    "/fs/presign",
    "Presign a PUT into a mount ({path: file} or {path: folder, fileName, fileSize})",
    UPLOAD,
    { body: json(fsUp.PresignSchema) },
  ),
  post(
    "/fs/presign/commit",
    "Confirm a presigned PUT ({path} or {targetPath, mountId, fileSize})",
    UPLOAD,
    { body: json(fsUp.CommitSchema), status: 201 },
  ),

  post("/fs/batch-copy", "Copy entries (a background task)", "key:MOUNT_COPY", {
    body: json(BatchCopySchema),
    ...TASK_STARTED,
  }),
  post("/fs/batch-copy-commit", "Commit a cross-storage copy", "key:MOUNT_COPY", {
    body: json(BatchCopyCommitSchema),
  }),
  post("/fs/tasks/delete", "Delete entries as a background task", "key:MOUNT_DELETE", {
    body: json(DeleteTaskSchema),
    ...TASK_STARTED,
  }),
  post("/fs/tasks/download", "Download URLs into a mount as a task", UPLOAD, {
    body: json(DownloadTaskSchema),
    ...TASK_STARTED,
  }),
  get("/fs/tasks", "List tasks", "mount", { data: z.array(D.Task) }),
  get("/fs/tasks/:id", "One task", "mount", { data: D.Task }),
  post("/fs/tasks/:id/cancel", "Cancel a task", "mount", { data: D.Task }),
  post("/fs/tasks/:id/retry", "Retry a task", "mount", { data: D.Task }),
  post("/fs/tasks/clear", "Clear finished tasks", "mount"),

  get("/fs/search", "Search mounts", VIEW, { query: SearchQuery }),
  post("/fs/search/rebuild", "Rebuild a mount's search index (202: started)", "admin", {
    body: json(MountRef),
    status: 202,
  }),
  get("/fs/search/rebuild", "State of a rebuild", "admin", { query: MountRef }),
];

/**
 * The filesystem, uploads into mounts, tasks and search. Every path or mount named in a body or
 * query may not exist (404 mount_not_found and the like); every write may meet the storage.
 */
export const FS_ROUTES: RouteDoc[] = withErrors(
  withErrors(ROUTES, [404], (r) => Boolean(r.body || r.query)),
  STORED,
  (r) => r.method === "post" && r.path !== "/fs/search/rebuild" && !r.path.startsWith("/fs/tasks/"),
);
