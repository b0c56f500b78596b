/**
 * Backup and restore (docs/PRODUCT.md §3.9, §5.4 and §14.4): the module list, their
 * dependencies, the request schemas and the shapes of what the API answers.
 */
import { z } from "zod";

/** Every backup module, in the order the screen lists them. */
export const BACKUP_MODULES = [
  "text_management",
  "file_management",
  "mount_management",
  "storage_config",
  "key_management",
  "account_management",
  "system_settings",
] as const;
export type BackupModule = typeof BACKUP_MODULES[number];

/** Modules that a module needs in the same backup: files and mounts point at storage configs. */
export const MODULE_DEPENDENCIES: Record<BackupModule, readonly BackupModule[]> = {
  text_management: [],
  file_management: ["storage_config"],
  mount_management: ["storage_config"],
  storage_config: [],
  key_management: [],
  account_management: [],
  system_settings: [],
};

/** The chosen modules plus everything they depend on, in BACKUP_MODULES order. */
export function withDependencies(modules: readonly BackupModule[]): BackupModule[] {
  const wanted = new Set<BackupModule>(modules);
  for (const m of modules) for (const dep of MODULE_DEPENDENCIES[m]) wanted.add(dep);
  return BACKUP_MODULES.filter((m) => wanted.has(m));
}

/** Modules added only because a chosen module needs them. */
export function addedDependencies(modules: readonly BackupModule[]): BackupModule[] {
  return withDependencies(modules).filter((m) => !modules.includes(m));
}

export const BackupModuleSchema = z.enum(BACKUP_MODULES);

const ModulesSchema = z.object({
  modules: z.array(BackupModuleSchema).min(1, "backup_no_modules").max(BACKUP_MODULES.length),
});

/**
 * POST /api/admin/backup/create: `{modules}` with at least one module, or CloudPaste's
 * `{backup_type: "full"}` (every module) / `{backup_type: "modules", selected_modules}`.
 */
export const BackupCreateSchema = z.preprocess((v) => {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if (o.modules !== undefined) return o;
  if (o.backup_type === "full") return { modules: [...BACKUP_MODULES] };
  if (o.backup_type === "modules") return { modules: o.selected_modules ?? [] };
  return o;
}, ModulesSchema);
export type BackupCreate = z.infer<typeof BackupCreateSchema>;

export const RESTORE_MODES = ["overwrite", "merge"] as const;
export type RestoreMode = typeof RESTORE_MODES[number];
export const RestoreModeSchema = z.enum(RESTORE_MODES);

/** The version of the Cubby backup format this build writes and reads. */
export const BACKUP_FORMAT_VERSION = 1;

/** What a validated file holds, shown before a restore is applied. */
export type BackupInfo = {
  /** "cubby" for our own files, "cloudpaste" for an imported CloudPaste backup. */
  format: "cubby" | "cloudpaste";
  version: string;
  app_version: string | null;
  created_at: string | null;
  type: string;
  modules: BackupModule[];
  counts: Record<string, number>;
  checksum: string;
};

/** Per-module outcome of a restore. */
export type ModuleReport = {
  /** Records written from the file. */
  restored: number;
  /** Records of the file left out (merge collisions, unusable rows). */
  skipped: number;
  /** Existing records removed (overwrite mode). */
  removed: number;
};

/** One record that was left out, and why (reason is a `backup.reasons.*` key). */
export type SkippedRecord = { module: BackupModule; id: string; reason: string };

/** Something the admin should know (code is a `backup.notes.*` key). */
export type RestoreNote = { module: BackupModule; code: string; count: number };

/** What POST /api/admin/backup/restore answers. */
export type RestoreReport = {
  format: BackupInfo["format"];
  mode: RestoreMode;
  modules: Partial<Record<BackupModule, ModuleReport>>;
  /** The first skipped records (at most 200); `skipped_total` counts them all. */
  skipped: SkippedRecord[];
  skipped_total: number;
  notes: RestoreNote[];
  /** True when the restored account differs from the current one: every session ended. */
  sessions_revoked: boolean;
  duration_ms: number;
};

/** GET /api/admin/backup/status: a restore in progress, or none. */
export type RestoreStatus = {
  restoring: boolean;
  phase: "capturing" | "applying" | "committed" | "rolling_back" | null;
  done: number;
  total: number;
  started_at: string | null;
  /** Entries left in the undo area (0 when nothing is pending). */
  undo_entries: number;
};
