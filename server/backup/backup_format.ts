/**
 * The Cubby backup file, version 1 (docs/BACKUP.md):
 *
 *   {metadata: {app: "cubby", version: 1, app_version, created_at, type, modules, counts,
 *               checksum}, data: {<module>: [records]}}
 *
 * `checksum` is the SHA-256 (hex) of the canonical JSON of `data`: object keys sorted at every
 * level, no whitespace. Records are the entities themselves, never their indexes: a restore
 * rebuilds indexes, chunks and counters from them. Everything here is checked before a restore
 * touches anything.
 */
import { z } from "zod";
import { AppError } from "../errors.ts";
import { sha256Hex } from "../lib/crypto.ts";
import {
  BACKUP_FORMAT_VERSION,
  BACKUP_MODULES,
  type BackupInfo,
  type BackupModule,
  BackupModuleSchema,
  type RestoreNote,
  type SkippedRecord,
} from "../../shared/schemas/backup.ts";
import { MAX_REMARK_LENGTH, SLUG_PATTERN } from "../../shared/schemas/pastes.ts";
import { E2EStoredSchema } from "../../shared/schemas/e2e.ts";
import { PROVIDER_TYPES } from "../../shared/schemas/storage_configs.ts";
import { MOUNT_PATH_PATTERN, WEBDAV_POLICIES } from "../../shared/schemas/mounts.ts";

/** Sorts object keys at every level (arrays keep their order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    out[k] = sortKeys((value as Record<string, unknown>)[k]);
  }
  return out;
}

/** The canonical JSON of a value: keys sorted at every level, no whitespace. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** The SHA-256 hex of the canonical JSON of `data` (Cubby's checksum). */
export function backupChecksum(data: unknown): Promise<string> {
  return Promise.resolve(sha256Hex(canonicalJson(data)));
}

const Iso = z.string().max(40).refine((s) => Number.isFinite(Date.parse(s)), "invalid time");
const IsoOrNull = Iso.nullable();
/** Paste and file ids are ULIDs (the services refuse anything else). */
const Ulid = z.string().regex(/^[0-9A-Za-z]{26}$/);
const Id = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/);
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Creator = z.string().min(1).max(100);

const PasteBackupSchema = z.object({
  id: Ulid,
  slug: z.string().regex(SLUG_PATTERN),
  remark: z.string().max(MAX_REMARK_LENGTH).nullable(),
  password_hash: z.string().max(512).nullable(),
  expires_at: IsoOrNull,
  max_views: Count,
  views: Count,
  created_at: Iso,
  updated_at: Iso,
  created_by: Creator,
  content: z.string(),
  /** End-to-end encrypted: `content` is the ciphertext (docs/E2E.md). */
  e2e: E2EStoredSchema.optional(),
});
export type PasteBackup = z.infer<typeof PasteBackupSchema>;

const FileBackupSchema = z.object({
  id: Ulid,
  slug: z.string().regex(SLUG_PATTERN),
  filename: z.string().min(1).max(1000),
  size: Count,
  mimetype: z.string().max(255),
  remark: z.string().max(MAX_REMARK_LENGTH),
  password_hash: z.string().max(512).nullable(),
  expires_at: IsoOrNull,
  max_views: Count,
  views: Count,
  use_proxy: z.boolean(),
  storage_config_id: Id,
  storage_path: z.string().min(1).max(2000),
  etag: z.string().max(200),
  created_at: Iso,
  updated_at: Iso,
  created_by: Creator,
  /** End-to-end encrypted: the object is ciphertext, `e2e.meta` the sealed name and type. */
  e2e: E2EStoredSchema.optional(),
});
export type FileBackup = z.infer<typeof FileBackupSchema>;

const MountBackupSchema = z.object({
  id: Id,
  name: z.string().min(1).max(100),
  mount_path: z.string().max(512).regex(MOUNT_PATH_PATTERN),
  storage_type: z.enum(["s3", "local"]),
  storage_config_id: Id,
  remark: z.string().max(MAX_REMARK_LENGTH),
  sort_order: z.number().int(),
  cache_ttl: Count,
  is_active: z.boolean(),
  web_proxy: z.boolean(),
  enable_sign: z.boolean(),
  sign_expires: Count,
  webdav_policy: z.enum(WEBDAV_POLICIES),
  created_by: Creator,
  created_at: Iso,
  updated_at: Iso,
});
export type MountBackup = z.infer<typeof MountBackupSchema>;

const StorageConfigBackupSchema = z.object({
  id: Id,
  // Empty is the first-start default config, named in the reader's language (storage_names.ts).
  name: z.string().max(100),
  provider_type: z.enum(PROVIDER_TYPES),
  endpoint_url: z.string().max(2000),
  bucket_name: z.string().max(255),
  region: z.string().max(64),
  access_key_id: z.string().max(256),
  /** The sealed (AES-256-GCM) secret, exactly as stored; never the plaintext. */
  secret_access_key_enc: z.string().max(4096),
  path_style: z.boolean(),
  default_folder: z.string().max(512),
  is_public: z.boolean(),
  custom_host: z.string().max(2000),
  signature_expires_in: Count,
  total_storage_bytes: Count.nullable(),
  root_dir: z.string().max(1024).nullable(),
  created_at: Iso,
  updated_at: Iso,
  is_default: z.boolean(),
});
export type StorageConfigBackup = z.infer<typeof StorageConfigBackupSchema>;

const ApiKeyBackupSchema = z.object({
  id: Id,
  name: z.string().min(1).max(200),
  /** SHA-256 of the key: the key itself is never stored, so it cannot be exported. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  key_prefix: z.string().max(32),
  permissions: Count,
  role: z.string().max(32),
  basic_path: z.string().min(1).max(1024),
  is_guest: z.boolean(),
  created_at: Iso,
  expires_at: IsoOrNull,
  last_used: IsoOrNull,
});
export type ApiKeyBackup = z.infer<typeof ApiKeyBackupSchema>;

const AccountBackupSchema = z.object({
  username: z.string().min(1).max(100),
  /** The PBKDF2 hash, so that a restore keeps the login; never a plaintext password. */
  password_hash: z.string().min(1).max(512),
  created_at: Iso,
  updated_at: Iso,
});
export type AccountBackup = z.infer<typeof AccountBackupSchema>;

const SettingBackupSchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/),
  value: z.json(),
});
export type SettingBackup = z.infer<typeof SettingBackupSchema>;

/** The record schema of each module. */
export const MODULE_SCHEMAS = {
  text_management: z.array(PasteBackupSchema),
  file_management: z.array(FileBackupSchema),
  mount_management: z.array(MountBackupSchema),
  storage_config: z.array(StorageConfigBackupSchema),
  key_management: z.array(ApiKeyBackupSchema),
  account_management: z.array(AccountBackupSchema).max(1),
  system_settings: z.array(SettingBackupSchema),
} satisfies Record<BackupModule, z.ZodType>;

/** The records of a backup, per module; a module absent from the file is absent here. */
export type BackupData = {
  text_management?: PasteBackup[];
  file_management?: FileBackup[];
  mount_management?: MountBackup[];
  storage_config?: StorageConfigBackup[];
  key_management?: ApiKeyBackup[];
  account_management?: AccountBackup[];
  system_settings?: SettingBackup[];
};

export const BackupMetadataSchema = z.object({
  app: z.literal("cubby"),
  version: z.number().int(),
  app_version: z.string().max(40),
  created_at: Iso,
  type: z.enum(["full", "partial"]),
  modules: z.array(BackupModuleSchema).min(1),
  counts: z.record(z.string(), Count),
  checksum: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupMetadata = z.infer<typeof BackupMetadataSchema>;

/** A complete Cubby backup file. */
export type BackupFile = { metadata: BackupMetadata; data: BackupData };

/**
 * A file read and checked: what it says about itself, the records to restore, and (for an
 * import from another format) the rows left out and what the admin should know.
 */
export type ParsedBackup = {
  info: BackupInfo;
  data: BackupData;
  skipped?: SkippedRecord[];
  notes?: RestoreNote[];
};

/** 400 invalid backup file, with a short reason (and the offending path, if any). */
export function invalidFile(reason: string, path?: string): AppError {
  return new AppError("backup_invalid_file", 400, path ? { reason, path } : { reason });
}

/** The first zod issue as a readable path, e.g. `data.text_management.3.slug`. */
function issuePath(prefix: string, err: z.ZodError): string {
  const issue = err.issues[0];
  return [prefix, ...(issue?.path ?? []).map(String)].join(".");
}

/** Parses JSON text; throws 400 backup_parse_failed. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new AppError("backup_parse_failed", 400);
  }
}

/**
 * Checks a Cubby backup: version, shape, that metadata and data agree, and the checksum.
 * Throws 400 backup_unsupported_version, backup_invalid_file or backup_checksum_mismatch.
 */
export async function readCubbyBackup(
  metadata: Record<string, unknown>,
  data: Record<string, unknown>,
): Promise<ParsedBackup> {
  if (metadata.version !== BACKUP_FORMAT_VERSION) {
    throw new AppError("backup_unsupported_version", 400, { version: String(metadata.version) });
  }
  const meta = BackupMetadataSchema.safeParse(metadata);
  if (!meta.success) throw invalidFile("metadata", issuePath("metadata", meta.error));
  const m = meta.data;
  const present = Object.keys(data);
  const unknown = present.find((k) => !(BACKUP_MODULES as readonly string[]).includes(k));
  if (unknown) throw invalidFile("unknown_module", `data.${unknown}`);
  if (present.length !== m.modules.length || m.modules.some((mod) => !(mod in data))) {
    throw invalidFile("modules_mismatch", "metadata.modules");
  }
  if (await backupChecksum(data) !== m.checksum) {
    throw new AppError("backup_checksum_mismatch", 400);
  }
  const out: BackupData = {};
  for (const mod of m.modules) {
    const parsed = MODULE_SCHEMAS[mod].safeParse(data[mod]);
    if (!parsed.success) throw invalidFile("record", issuePath(`data.${mod}`, parsed.error));
    if (m.counts[mod] !== undefined && m.counts[mod] !== parsed.data.length) {
      throw invalidFile("count_mismatch", `metadata.counts.${mod}`);
    }
    (out as Record<string, unknown>)[mod] = parsed.data;
  }
  return {
    info: {
      format: "cubby",
      version: String(m.version),
      app_version: m.app_version,
      created_at: m.created_at,
      type: m.type,
      modules: BACKUP_MODULES.filter((mod) => m.modules.includes(mod)),
      counts: Object.fromEntries(m.modules.map((mod) => [mod, out[mod]?.length ?? 0])),
      checksum: m.checksum,
    },
    data: out,
  };
}
