/**
 * CloudPaste storage configs and mounts → Cubby records. Older CloudPaste versions keep S3
 * buckets in `s3_configs` (one column per field); newer ones keep every driver in
 * `storage_configs` with its fields in `config_json`. Only S3 and local storage map onto Cubby;
 * other drivers (WebDAV, OneDrive…) are skipped. Secrets were sealed with CloudPaste's key and
 * cannot be opened here, so they are dropped and must be entered again.
 */
import { bool, type ImportLog, int, isoOrNull, str, timeId } from "./cloudpaste_rows.ts";
import type { MountBackup, StorageConfigBackup } from "./backup_format.ts";
import type { ProviderType } from "../../shared/schemas/storage_configs.ts";
import { MOUNT_PATH_PATTERN, WEBDAV_POLICIES } from "../../shared/schemas/mounts.ts";
import { MOUNT_CACHE_TTL_MAX, MOUNT_NAME_MAX } from "../../shared/constants.ts";
import { normalizePath } from "../../shared/permissions.ts";

/** The rows of a CloudPaste backup, by table. */
export type Rows = Record<string, Record<string, unknown>[]>;

function providerOf(text: string): ProviderType {
  const t = text.toLowerCase();
  if (t.includes("r2") || t.includes("cloudflare")) return "r2";
  if (t.includes("b2") || t.includes("backblaze")) return "b2";
  if (t.includes("aliyun") || t.includes("oss")) return "aliyun_oss";
  if (t.includes("minio")) return "minio";
  if (t.includes("aws") || t.includes("amazon")) return "aws";
  return "other";
}

function folderOf(v: unknown): string {
  const f = str(v).replace(/^\/+|\/+$/g, "");
  return f.split("/").some((p) => p === ".." || p === ".") || f.includes("\\") ? "" : f;
}

/** The fields of one config: the row itself (s3_configs) or its parsed config_json. */
function fieldsOf(row: Record<string, unknown>): Record<string, unknown> | null {
  if (row.config_json === undefined) return row;
  try {
    const parsed = typeof row.config_json === "string"
      ? JSON.parse(row.config_json)
      : row.config_json;
    return parsed && typeof parsed === "object" ? { ...row, ...parsed } : null;
  } catch {
    return null;
  }
}

/** Maps storage configs; `ids` maps CloudPaste ids to the new ones (for files and mounts). */
export function importStorageConfigs(rows: Rows, log: ImportLog) {
  const configs: StorageConfigBackup[] = [];
  const ids = new Map<string, string>();
  let secrets = 0;
  const all = [...(rows.s3_configs ?? []), ...(rows.storage_configs ?? [])];
  for (const row of all) {
    const name = str(row.name).slice(0, 100) || "CloudPaste storage";
    const kind = str(row.storage_type || "S3").toUpperCase();
    const f = fieldsOf(row);
    if (!f) {
      log.skip("storage_config", name, "invalid_record");
      continue;
    }
    if (kind !== "S3" && kind !== "LOCAL") {
      log.skip("storage_config", name, "unsupported_storage_type");
      continue;
    }
    const local = kind === "LOCAL";
    const root = str(f.root_path || f.root_dir);
    if (local && !root.startsWith("/")) {
      log.skip("storage_config", name, "invalid_record");
      continue;
    }
    const provider: ProviderType = local ? "local" : providerOf(str(f.provider_type));
    const created = isoOrNull(row.created_at) ?? new Date().toISOString();
    const id = timeId(created);
    ids.set(str(row.id), id);
    if (!local) secrets++;
    const expires = int(f.signature_expires_in) || 3600;
    configs.push({
      id,
      name,
      provider_type: provider,
      endpoint_url: local ? "" : str(f.endpoint_url),
      bucket_name: local ? "" : str(f.bucket_name).slice(0, 255),
      region: local ? "" : str(f.region).slice(0, 64) || (provider === "r2" ? "auto" : "us-east-1"),
      access_key_id: "",
      secret_access_key_enc: "",
      path_style: bool(f.path_style),
      default_folder: folderOf(f.default_folder),
      is_public: bool(row.is_public),
      custom_host: local ? "" : str(f.custom_host),
      signature_expires_in: Math.min(Math.max(expires, 60), 7 * 24 * 3600),
      total_storage_bytes: int(f.total_storage_bytes) || null,
      root_dir: local ? root : null,
      created_at: created,
      updated_at: isoOrNull(row.updated_at) ?? created,
      is_default: bool(row.is_default),
    });
  }
  log.note("storage_config", "storage_secret_missing", secrets);
  return { configs, ids };
}

/** Maps storage mounts onto the imported configs. */
export function importMounts(
  rows: Rows,
  configIds: Map<string, string>,
  creator: (v: unknown) => string,
  log: ImportLog,
): MountBackup[] {
  const out: MountBackup[] = [];
  for (const row of rows.storage_mounts ?? []) {
    const name = str(row.name).slice(0, MOUNT_NAME_MAX);
    const path = normalizePath(str(row.mount_path));
    const kind = str(row.storage_type).toUpperCase();
    const configId = configIds.get(str(row.storage_config_id) || str(row.s3_config_id));
    if (kind !== "S3" && kind !== "LOCAL") {
      log.skip("mount_management", name || "?", "unsupported_storage_type");
    } else if (!name || !path || path === "/" || !MOUNT_PATH_PATTERN.test(path)) {
      log.skip("mount_management", name || "?", "invalid_record");
    } else if (!configId) log.skip("mount_management", name, "missing_storage_config");
    else {
      const created = isoOrNull(row.created_at) ?? new Date().toISOString();
      const policy = str(row.webdav_policy);
      out.push({
        id: timeId(created),
        name,
        mount_path: path,
        storage_type: kind === "LOCAL" ? "local" : "s3",
        storage_config_id: configId,
        remark: str(row.remark).slice(0, 1000),
        sort_order: Math.trunc(Number(row.sort_order) || 0),
        cache_ttl: Math.min(
          row.cache_ttl === undefined ? 300 : int(row.cache_ttl),
          MOUNT_CACHE_TTL_MAX,
        ),
        is_active: row.is_active === undefined ? true : bool(row.is_active),
        web_proxy: bool(row.web_proxy),
        enable_sign: bool(row.enable_sign),
        sign_expires: int(row.sign_expires),
        webdav_policy: (WEBDAV_POLICIES as readonly string[]).includes(policy)
          ? policy as MountBackup["webdav_policy"]
          : "302_redirect",
        created_by: creator(row.created_by),
        created_at: created,
        updated_at: isoOrNull(row.updated_at) ?? created,
      });
    }
  }
  return out;
}
