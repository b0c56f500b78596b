/**
 * Imports a CloudPaste backup (docs/PRODUCT.md §14.4): `{metadata, data: {table: [rows]}}`, whose
 * checksum is the first 16 hex characters of the SHA-256 of the data with keys sorted. Its
 * tables are mapped onto Cubby's records, which then go through the same restore as a Cubby
 * file. Each mapping is listed in docs/BACKUP.md; in short:
 *
 * - rows get new ULIDs seeded with their creation time (Cubby lists by id), and references
 *   between them (files and mounts → storage configs, `apikey:` creators) follow the new ids;
 * - share passwords are carried over from `paste_passwords`/`file_passwords` (plain text there)
 *   by hashing them again; a protected share without one stays locked until the admin sets a
 *   new password (`password_reset_required`), it never becomes public;
 * - API keys are stored in plain text by CloudPaste, so they keep working; disabled keys come
 *   in expired;
 * - storage secrets were sealed with CloudPaste's own key and are dropped
 *   (`storage_secret_missing`: enter them again);
 * - the admin account (a bare SHA-256) and its tokens are not imported.
 */
import { AppError } from "../errors.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { canonicalJson, invalidFile, type ParsedBackup } from "./backup_format.ts";
import { importMounts, importStorageConfigs, type Rows } from "./cloudpaste_storage.ts";
import { importFiles, importPastes } from "./cloudpaste_shares.ts";
import { bool, ImportLog, isoOrNull, mapCreator, str, timeId } from "./cloudpaste_rows.ts";
import { BACKUP_MODULES, type BackupModule } from "../../shared/schemas/backup.ts";
import { checkSettingValue, settingMeta } from "../../shared/schemas/settings.ts";
import {
  ALL_PERMISSIONS,
  MOUNT_BITS,
  normalizePath,
  Permission,
} from "../../shared/permissions.ts";

/** Tables of a CloudPaste backup, and the module each belongs to. */
const TABLE_MODULES: Record<string, BackupModule> = {
  pastes: "text_management",
  paste_passwords: "text_management",
  files: "file_management",
  file_passwords: "file_management",
  storage_mounts: "mount_management",
  s3_configs: "storage_config",
  storage_configs: "storage_config",
  principal_storage_acl: "storage_config",
  api_keys: "key_management",
  admins: "account_management",
  admin_tokens: "account_management",
  system_settings: "system_settings",
};

/**
 * Maps one CloudPaste setting onto Cubby's: the same key (or `file_naming_strategy` →
 * `file_overwrite_mode`), checked like an edit in the settings screen. Null when Cubby has no
 * such setting, when it is a system value, or when the value does not pass the check.
 */
export function importCloudPasteSetting(key: string, value: unknown) {
  let name = key;
  let raw = value;
  if (key === "file_naming_strategy") {
    name = "file_overwrite_mode";
    raw = String(value).includes("random") ? "rename" : "overwrite";
  }
  const m = settingMeta(name);
  if (!m || m.system) return null;
  const check = checkSettingValue(m, raw);
  return check.ok ? { key: name, value: check.value } : null;
}

/** True when a parsed file looks like a CloudPaste backup. */
export function isCloudPasteBackup(meta: Record<string, unknown>, data: Record<string, unknown>) {
  const tables = Object.keys(data);
  return typeof meta.checksum === "string" && tables.length > 0 &&
    tables.every((t) => t in TABLE_MODULES && Array.isArray(data[t]));
}

/** CloudPaste's checksum: the first 16 hex characters of SHA-256 over the sorted data. */
export async function cloudPasteChecksum(data: unknown): Promise<string> {
  return (await sha256Hex(canonicalJson(data))).slice(0, 16);
}

/**
 * Checks the checksum and maps every table. Throws 400 backup_checksum_mismatch or
 * backup_invalid_file; rows that cannot be used are reported as skipped, never half-imported.
 * `kdfIterations` 0 skips the (slow) hashing of carried-over passwords, for a mere inspection.
 */
export async function importCloudPaste(
  meta: Record<string, unknown>,
  data: Record<string, unknown>,
  opts: { kdfIterations: number },
): Promise<ParsedBackup> {
  if (String(meta.checksum).toLowerCase() !== await cloudPasteChecksum(data)) {
    throw new AppError("backup_checksum_mismatch", 400);
  }
  const rows = {} as Rows;
  for (const [table, list] of Object.entries(data)) {
    const bad = (list as unknown[]).findIndex((r) => r === null || typeof r !== "object");
    if (bad >= 0) throw invalidFile("record", `data.${table}.${bad}`);
    rows[table] = list as Record<string, unknown>[];
  }
  const log = new ImportLog();
  const keyIds = new Map<string, string>();
  const present = new Set(Object.keys(data).map((t) => TABLE_MODULES[t]));
  const out: ParsedBackup["data"] = {};

  if (present.has("key_management")) out.key_management = await importKeys(rows, keyIds, log);
  const creator = (v: unknown) => mapCreator(v, keyIds);
  if (present.has("storage_config") || present.has("file_management")) {
    const { configs, ids } = importStorageConfigs(rows, log);
    if (present.has("storage_config")) out.storage_config = configs;
    if (present.has("file_management")) {
      out.file_management = await importFiles(rows, ids, creator, opts.kdfIterations, log);
    }
    if (present.has("mount_management")) {
      out.mount_management = importMounts(rows, ids, creator, log);
    }
  } else if (present.has("mount_management")) {
    out.mount_management = importMounts(rows, new Map(), creator, log);
  }
  if (present.has("text_management")) {
    out.text_management = await importPastes(rows, creator, opts.kdfIterations, log);
  }
  if (present.has("account_management")) {
    out.account_management = [];
    log.note("account_management", "admin_not_imported", (rows.admins ?? []).length);
  }
  if (present.has("system_settings")) {
    out.system_settings = [];
    for (const row of rows.system_settings ?? []) {
      const key = str(row.key);
      const setting = key ? importCloudPasteSetting(key, row.value) : null;
      if (setting) out.system_settings.push(setting);
      else log.skip("system_settings", key || "?", "unknown_setting");
    }
  }
  const modules = BACKUP_MODULES.filter((m) => out[m] !== undefined);
  return {
    info: {
      format: "cloudpaste",
      version: String(meta.version ?? "1.0"),
      app_version: null,
      created_at: isoOrNull(meta.timestamp),
      type: String(meta.backup_type ?? "full"),
      modules,
      counts: Object.fromEntries(modules.map((m) => [m, out[m]?.length ?? 0])),
      checksum: String(meta.checksum).toLowerCase(),
    },
    data: out,
    skipped: log.skipped,
    notes: log.notes,
  };
}

/** Permission bits from a new-style mask or the old boolean columns. */
function keyPermissions(row: Record<string, unknown>): number {
  if (typeof row.permissions === "number") return row.permissions & ALL_PERMISSIONS;
  let mask = 0;
  if (bool(row.text_permission)) mask |= Permission.TEXT;
  if (bool(row.file_permission)) mask |= Permission.FILE_SHARE;
  if (bool(row.mount_permission)) mask |= MOUNT_BITS;
  return mask;
}

async function importKeys(rows: Rows, ids: Map<string, string>, log: ImportLog) {
  const names = new Set<string>();
  const hashes = new Set<string>();
  const out = [];
  let disabled = 0;
  for (const row of rows.api_keys ?? []) {
    const name = str(row.name).slice(0, 200);
    const key = str(row.key);
    const hash = key ? await sha256Hex(key) : "";
    if (!name || !key) log.skip("key_management", name || "?", "invalid_record");
    else if (names.has(name)) log.skip("key_management", name, "name_exists");
    else if (hashes.has(hash)) log.skip("key_management", name, "key_exists");
    else {
      names.add(name);
      hashes.add(hash);
      const created = isoOrNull(row.created_at) ?? new Date().toISOString();
      let expires = isoOrNull(row.expires_at);
      if (expires && Date.parse(expires) >= Date.UTC(9999, 0, 1)) expires = null;
      if (row.is_enable !== undefined && !bool(row.is_enable)) {
        disabled++;
        expires = created;
      }
      const id = timeId(created);
      ids.set(str(row.id), id);
      out.push({
        id,
        name,
        key_hash: hash,
        key_prefix: key.slice(0, 6),
        permissions: keyPermissions(row),
        role: str(row.role) || "GENERAL",
        basic_path: normalizePath(str(row.basic_path) || "/") ?? "/",
        is_guest: str(row.role).toUpperCase() === "GUEST" || bool(row.is_guest),
        created_at: created,
        expires_at: expires,
        last_used: isoOrNull(row.last_used),
      });
    }
  }
  log.note("key_management", "key_disabled", disabled);
  return out;
}
