/**
 * The OpenAPI route table of the service and its administration: health, login, API keys,
 * storage configs, mounts, dashboard, caches, settings and backup (see openapi_routes_shares.ts).
 */
import { z } from "zod";
import * as D from "./openapi_data.ts";
import { ChangePasswordSchema, LoginSchema } from "../../shared/schemas/auth.ts";
import { ApiKeyCreateSchema, ApiKeyUpdateSchema } from "../../shared/schemas/api_keys.ts";
import {
  StorageConfigCreateSchema,
  StorageConfigUpdateSchema,
} from "../../shared/schemas/storage_configs.ts";
import { MountCreateSchema, MountUpdateSchema } from "../../shared/schemas/mounts.ts";
import { BackupCreateSchema } from "../../shared/schemas/backup.ts";
import { ListQuerySchema, UpdateQuerySchema } from "./settings.ts";
import { ModulesQuerySchema, RunsQuerySchema } from "./backup.ts";
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
  get("/openapi.json", "This OpenAPI document", "public", { bytes: "application/json" }),
  get("/health", "Health check", "public", { data: D.Health }),
  get("/version", "App version", "public", { data: D.Version }),
  post("/admin/login", "Admin login", "public", {
    body: json(LoginSchema),
    data: D.Login,
    errors: [401, 429],
  }),
  post("/admin/logout", "Logout; idempotent (200 for an unknown or expired token)", "optional", {
    data: D.Nothing,
  }),
  get("/test/admin-token", "Validate the admin token", "admin", { data: D.AdminToken }),
  get(
    "/test/api-key",
    "Validate an API key: permissions (object and bitmask) and key_info",
    "login",
    { data: D.ApiKeyCheck },
  ),
  post("/admin/change-password", "Change the admin username or password", "admin", {
    body: json(ChangePasswordSchema),
    data: D.Nothing,
  }),
  get("/admin/api-keys", "List API keys (permissions as object and bitmask)", "admin", {
    data: z.array(D.ApiKey),
  }),
  post("/admin/api-keys", "Create an API key; permissions as object or bitmask", "admin", {
    body: json(ApiKeyCreateSchema),
    status: 201,
    data: D.ApiKeyCreated,
  }),
  put("/admin/api-keys/:id", "Update an API key", "admin", {
    body: json(ApiKeyUpdateSchema),
    data: D.ApiKey,
  }),
  del("/admin/api-keys/:id", "Delete an API key", "admin", { data: D.Nothing }),

  get("/s3-configs", "List storage configs", FILE, { data: z.array(D.StorageConfig) }),
  post("/s3-configs", "Create a storage config (provider_type aliases accepted)", "admin", {
    body: json(StorageConfigCreateSchema),
    status: 201,
    data: D.StorageConfig,
  }),
  get("/s3-configs/:id", "One storage config", FILE, { data: D.StorageConfig }),
  put("/s3-configs/:id", "Update a storage config", "admin", {
    body: json(StorageConfigUpdateSchema),
    data: D.StorageConfig,
  }),
  del("/s3-configs/:id", "Delete a storage config", "admin", { data: D.Nothing }),
  put("/s3-configs/:id/set-default", "Make a storage config the default", "admin", {
    data: D.Nothing,
  }),
  post("/s3-configs/:id/test", "Test a storage config", "admin"),

  get("/mount/list", "List mounts the caller may see", "mount", { data: z.array(D.Mount) }),
  post("/mount/create", "Create a mount", "admin", {
    body: json(MountCreateSchema),
    status: 201,
    data: D.Mount,
    errors: [404, 409],
  }),
  put("/mount/:id", "Update a mount", "admin", { body: json(MountUpdateSchema), data: D.Mount }),
  del("/mount/:id", "Delete a mount", "admin", { data: D.Nothing }),

  get("/admin/dashboard/stats", "Dashboard totals", "admin"),
  get("/admin/cache/stats", "Cache statistics", "admin", { data: D.CacheStatsList }),
  post("/admin/cache/clear", "Clear every cache", "admin", { data: D.CacheCleared }),
  post("/user/cache/clear", "Clear the caller's caches", "login", { data: D.CacheCleared }),
  get("/public/site-config", "Public site settings and preview lists", "public"),
  get(
    "/admin/settings",
    "Settings; group=4 (site) is public, every other group admin-only",
    "optional",
    { query: ListQuerySchema, errors: [403] },
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
    { body: json(BackupCreateSchema), bytes: "application/json" },
  ),
  get("/admin/backup/create", "Download a backup", "admin", {
    query: ModulesQuerySchema,
    bytes: "application/json",
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
