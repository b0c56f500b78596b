/**
 * The `data` of the main success replies, as zod schemas for the OpenAPI document (the route
 * tables name them). They describe the TypeScript view types the services return; the type
 * check at the end fails to compile when a view type stops matching its schema. Objects are
 * loose: a reply may carry more fields than the schema names.
 */
import { z } from "zod";
import type { ApiKeyView } from "../../shared/schemas/api_keys.ts";
import type { PasteBatchDeleteResult, PasteList, PasteView } from "../../shared/schemas/pastes.ts";
import type { FileView, PublicFileView } from "../../shared/schemas/files.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import type { StorageConfigView } from "../../shared/schemas/storage_configs.ts";
import type { FsEntry, FsPage } from "../../shared/schemas/fs.ts";
import { PROVIDER_TYPES } from "../../shared/schemas/storage_configs.ts";
import { WEBDAV_POLICIES } from "../../shared/schemas/mounts.ts";
import { TASK_STATUSES, TASK_TYPES, type TaskView } from "../../shared/schemas/tasks.ts";
import type { CacheClearResult } from "../../shared/schemas/dashboard.ts";

/** An ISO 8601 time. */
const Time = z.string();
const int = () => z.number().int();

/** `data: null` (deletes, logout and other replies with nothing to say). */
export const Nothing = z.null();

export const Health = z.looseObject({ status: z.literal("ok"), time: Time });
export const Version = z.looseObject({ version: z.string(), runtime: z.string() });
export const Login = z.looseObject({ token: z.string(), username: z.string(), expires_at: Time });

export const ApiKey = z.looseObject({
  id: z.string(),
  name: z.string(),
  key_masked: z.string(),
  permissions: z.record(z.string(), z.boolean()),
  permission_mask: int(),
  role: z.string(),
  basic_path: z.string(),
  is_guest: z.boolean(),
  created_at: Time,
  expires_at: Time.nullable(),
  last_used: Time.nullable(),
  is_expired: z.boolean(),
});
/** A key as created: the only reply that carries the key itself. */
export const ApiKeyCreated = ApiKey.extend({ key: z.string() });

const PasteFields = {
  id: z.string(),
  slug: z.string(),
  remark: z.string().nullable(),
  has_password: z.boolean(),
  expires_at: Time.nullable(),
  max_views: int(),
  views: int(),
  created_at: Time,
  updated_at: Time,
  created_by: z.string(),
  url: z.string(),
  can_manage: z.boolean(),
  content_size: int(),
};
export const Paste = z.looseObject({ ...PasteFields, content: z.string().nullable() });
export const PasteListPage = z.looseObject({
  items: z.array(z.looseObject({ ...PasteFields, preview: z.string(), is_expired: z.boolean() })),
  total: int(),
  page: int(),
  limit: int(),
  offset: int(),
});
export const BatchDeleted = z.looseObject({
  deleted: int(),
  skipped: int(),
  skipped_ids: z.array(z.string()),
});

const FileShareFields = {
  id: z.string(),
  slug: z.string(),
  filename: z.string(),
  size: int(),
  mimetype: z.string(),
  remark: z.string(),
  has_password: z.boolean(),
  expires_at: Time.nullable(),
  max_views: int(),
  views: int(),
  created_at: Time,
};
export const FileShare = z.looseObject({
  ...FileShareFields,
  use_proxy: z.boolean(),
  storage_config_id: z.string(),
  storage_path: z.string(),
  updated_at: Time,
  created_by: z.string(),
  url: z.string(),
});
export const FileShareList = z.looseObject({
  items: z.array(FileShare),
  total: int(),
  limit: int(),
  offset: int(),
});
export const PublicFileShare = z.looseObject({
  ...FileShareFields,
  preview_url: z.string(),
  download_url: z.string(),
  can_manage: z.boolean(),
});

export const Mount = z.looseObject({
  id: z.string(),
  name: z.string(),
  mount_path: z.string(),
  storage_type: z.enum(["s3", "local"]),
  storage_config_id: z.string(),
  remark: z.string(),
  sort_order: int(),
  cache_ttl: int(),
  is_active: z.boolean(),
  web_proxy: z.boolean(),
  enable_sign: z.boolean(),
  sign_expires: int(),
  webdav_policy: z.enum(WEBDAV_POLICIES),
  created_by: z.string(),
  created_at: Time,
  updated_at: Time,
});

export const StorageConfig = z.looseObject({
  id: z.string(),
  name: z.string(),
  provider_type: z.enum(PROVIDER_TYPES),
  storage_type: z.enum(["local", "s3"]),
  endpoint_url: z.string(),
  bucket_name: z.string(),
  region: z.string(),
  access_key_id_masked: z.string(),
  has_secret: z.boolean(),
  path_style: z.boolean(),
  default_folder: z.string(),
  is_public: z.boolean(),
  is_default: z.boolean(),
  custom_host: z.string(),
  signature_expires_in: int(),
  total_storage_bytes: int().nullable(),
  root_dir: z.string().nullable(),
  used_bytes: int(),
  created_at: Time,
  updated_at: Time,
});

export const FsItem = z.looseObject({
  name: z.string(),
  path: z.string(),
  type: z.enum(["file", "directory"]),
  size: int(),
  modified: Time.nullable(),
  mimetype: z.string().nullable(),
  mount_id: z.string().optional(),
  etag: z.string().optional(),
});
export const FsFolderPage = z.looseObject({
  path: z.string(),
  items: z.array(FsItem),
  cursor: z.string().nullable(),
  is_virtual: z.boolean(),
  mount_id: z.string().optional(),
});

export const Task = z.looseObject({
  id: z.string(),
  type: z.enum(TASK_TYPES),
  status: z.enum(TASK_STATUSES),
  progress: z.number(),
  current_file: z.string().nullable(),
  success_count: int(),
  failed_count: int(),
  skipped_count: int(),
  total: int(),
  error: z.string().nullable(),
  errors: z.array(z.looseObject({ path: z.string(), error: z.string() })),
  created_at: Time,
  updated_at: Time,
  completed_at: Time.nullable(),
  created_by: z.string(),
});
/** A background task just started (202). */
export const TaskStarted = z.looseObject({ task_id: z.string(), task: Task });

export const CacheStatsList = z.looseObject({
  caches: z.array(z.looseObject({
    name: z.string(),
    hits: int(),
    misses: int(),
    hit_rate: z.number(),
    items: int(),
  })),
});
export const CacheCleared = z.looseObject({
  cleared: z.array(z.looseObject({ name: z.string(), items: int() })),
  total: int(),
});
export const AdminToken = z.looseObject({
  valid: z.literal(true),
  username: z.string().nullable(),
});
export const ApiKeyCheck = z.looseObject({
  name: z.string(),
  permissions: z.record(z.string(), z.boolean()),
  permission_mask: int(),
  key_info: z.looseObject({ id: z.string(), name: z.string(), basic_path: z.string() }),
  expires_at: Time.nullable(),
  is_guest: z.boolean(),
});

/** True when every value of type T is one the schema S accepts. */
type Describes<T, S extends z.ZodType> = [T] extends [z.output<S>] ? true : false;
/** Fails to compile when a view type and its schema above drift apart. */
export const VIEW_TYPES_MATCH: [
  Describes<ApiKeyView, typeof ApiKey>,
  Describes<PasteView, typeof Paste>,
  Describes<PasteList, typeof PasteListPage>,
  Describes<PasteBatchDeleteResult, typeof BatchDeleted>,
  Describes<FileView, typeof FileShare>,
  Describes<PublicFileView, typeof PublicFileShare>,
  Describes<MountView, typeof Mount>,
  Describes<StorageConfigView, typeof StorageConfig>,
  Describes<FsEntry, typeof FsItem>,
  Describes<FsPage, typeof FsFolderPage>,
  Describes<TaskView, typeof Task>,
  Describes<CacheClearResult, typeof CacheCleared>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];
