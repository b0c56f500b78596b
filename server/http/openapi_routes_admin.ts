/**
 * The OpenAPI route table of the service and its administration: health, login, API keys,
 * storage configs, mounts, dashboard, caches, settings and backup (see openapi_routes_shares.ts).
 */
import { ChangePasswordSchema, LoginSchema } from "../../shared/schemas/auth.ts";
import { ApiKeyCreateSchema, ApiKeyUpdateSchema } from "../../shared/schemas/api_keys.ts";
import {
  StorageConfigCreateSchema,
  StorageConfigUpdateSchema,
} from "../../shared/schemas/storage_configs.ts";
import { MountCreateSchema, MountUpdateSchema } from "../../shared/schemas/mounts.ts";
import { BackupCreateSchema } from "../../shared/schemas/backup.ts";
import { ListQuerySchema, UpdateQuerySchema } from "../routes/settings.ts";
import { ModulesQuerySchema, RunsQuerySchema } from "../routes/backup.ts";
import { BackupScheduleSchema } from "../../shared/schemas/backup_schedule.ts";
import {
  del,
  FILE,
  get,
  json,
  post,
  put,
  type RouteDoc,
  SettingsBody,
} from "./openapi_route_types.ts";

/** Health, auth, API keys, storage configs, mounts, dashboard, caches, settings and backup. */
export const ADMIN_ROUTES: RouteDoc[] = [
  get("/openapi.json", "This OpenAPI document", "public"),
  get("/health", "Health check", "public"),
  get("/version", "App version", "public"),
  post("/admin/login", "Admin login", "public", { body: json(LoginSchema) }),
  post("/admin/logout", "Logout; idempotent (200 for an unknown or expired token)", "optional"),
  get("/test/admin-token", "Validate the admin token", "admin"),
  get(
    "/test/api-key",
    "Validate an API key: permissions (object and bitmask) and key_info",
    "login",
  ),
  post("/admin/change-password", "Change the admin username or password", "admin", {
    body: json(ChangePasswordSchema),
  }),
  get("/admin/api-keys", "List API keys (permissions as object and bitmask)", "admin"),
  post("/admin/api-keys", "Create an API key; permissions as object or bitmask", "admin", {
    body: json(ApiKeyCreateSchema),
    status: 201,
  }),
  put("/admin/api-keys/:id", "Update an API key", "admin", { body: json(ApiKeyUpdateSchema) }),
  del("/admin/api-keys/:id", "Delete an API key", "admin"),

  get("/s3-configs", "List storage configs", FILE),
  post("/s3-configs", "Create a storage config (provider_type aliases accepted)", "admin", {
    body: json(StorageConfigCreateSchema),
    status: 201,
  }),
  get("/s3-configs/:id", "One storage config", FILE),
  put("/s3-configs/:id", "Update a storage config", "admin", {
    body: json(StorageConfigUpdateSchema),
  }),
  del("/s3-configs/:id", "Delete a storage config", "admin"),
  put("/s3-configs/:id/set-default", "Make a storage config the default", "admin"),
  post("/s3-configs/:id/test", "Test a storage config", "admin"),

  get("/mount/list", "List mounts the caller may see", "mount"),
  post("/mount/create", "Create a mount", "admin", { body: json(MountCreateSchema), status: 201 }),
  put("/mount/:id", "Update a mount", "admin", { body: json(MountUpdateSchema) }),
  del("/mount/:id", "Delete a mount", "admin"),

  get("/admin/dashboard/stats", "Dashboard totals", "admin"),
  get("/admin/cache/stats", "Cache statistics", "admin"),
  post("/admin/cache/clear", "Clear every cache", "admin"),
  post("/user/cache/clear", "Clear the caller's caches", "login"),
  get("/public/site-config", "Public site settings and preview lists", "public"),
  get(
    "/admin/settings",
    "Settings; group=4 (site) is public, every other group admin-only",
    "optional",
    { query: ListQuerySchema },
  ),
  get("/admin/settings/groups", "Settings groups", "admin"),
  get("/admin/settings/metadata", "Settings metadata", "admin"),
  put(
    "/admin/settings/group/:group",
    "Save a settings group (CloudPaste names accepted)",
    "admin",
    { query: UpdateQuerySchema, body: json(SettingsBody) },
  ),
  get("/admin/backup/modules", "Backup modules and their dependencies", "admin"),
  post(
    "/admin/backup/create",
    "Download a backup ({modules} or {backup_type, selected_modules})",
    "admin",
    { body: json(BackupCreateSchema), bytes: true },
  ),
  get("/admin/backup/create", "Download a backup", "admin", {
    query: ModulesQuerySchema,
    bytes: true,
  }),
  post("/admin/backup/validate", "Check a backup file", "admin", { body: { kind: "backup" } }),
  post("/admin/backup/restore", "Restore a backup file (field file or backup_file)", "admin", {
    body: { kind: "backup" },
  }),
  get("/admin/backup/status", "A restore under way", "admin"),
  get("/admin/backup/schedule", "The backup schedule and its next run", "admin"),
  put("/admin/backup/schedule", "Set the backup schedule", "admin", {
    body: json(BackupScheduleSchema),
  }),
  get("/admin/backup/runs", "Runs of the backup schedule, newest first", "admin", {
    query: RunsQuerySchema,
  }),
  post("/admin/backup/runs", "Run the scheduled backup now", "admin", { status: 201 }),
];
