/**
 * The storage part of a restore plan: storage configs, file shares, the default config and the
 * usage counters, which depend on each other.
 *
 * - Overwrite mode replaces the configs, except configs that files or mounts staying after the
 *   restore still use: those are kept (`storage_config_kept_in_use`), never left dangling.
 * - A file or mount is restored only if its config exists afterwards.
 * - Usage counters move by the sizes of the files removed and added, so bytes counted by other
 *   writers stay counted.
 * - Sealed secrets are checked against this instance's key; a secret it cannot open is
 *   reported (`storage_secret_unreadable`: set ENCRYPTION_SECRET or copy secret.key, or enter
 *   the secret again).
 */
import type { SecretBox } from "../services/secret_box.ts";
import type { BackupData } from "./backup_format.ts";
import { invalidFile } from "./backup_format.ts";
import type { PlanBuilder } from "./backup_plan_builder.ts";
import type { RestoreRepos } from "./backup_repos.ts";
import type { StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { RestoreMode } from "../../shared/schemas/backup.ts";

type Kind = "s3" | "local";
const kindOf = (c: { provider_type: string }): Kind => c.provider_type === "local" ? "local" : "s3";

function add(map: Map<string, bigint>, id: string, bytes: number) {
  map.set(id, (map.get(id) ?? 0n) + BigInt(bytes));
}

/**
 * Plans configs and files. Returns the kind of every config that exists after the restore, by
 * id. Throws 400 backup_invalid_file for duplicate ids or slugs.
 */
export async function planStorage(
  repos: RestoreRepos,
  data: BackupData,
  mode: RestoreMode,
  b: PlanBuilder,
  box: SecretBox | null,
  checkSecrets: boolean,
): Promise<Map<string, Kind>> {
  const currentConfigs = await repos.storage.list();
  const final = new Map<string, Kind>(currentConfigs.map((c) => [c.id, kindOf(c)]));
  if (!data.storage_config && !data.file_management) return final;

  const overwriteFiles = mode === "overwrite" && data.file_management !== undefined;
  const overwriteMounts = mode === "overwrite" && data.mount_management !== undefined;
  const currentFiles = await repos.files.list(null);
  const removedBytes = new Map<string, bigint>();
  const addedBytes = new Map<string, bigint>();
  const removedConfigs: string[] = [];

  const incoming = data.storage_config;
  if (incoming) {
    const ids = new Set<string>();
    incoming.forEach((c, i) => {
      if (ids.has(c.id)) throw invalidFile("duplicate", `data.storage_config.${i}.id`);
      ids.add(c.id);
    });
    if (mode === "overwrite") {
      // Configs that stay in use after the restore are kept.
      const inUse = new Set<string>();
      if (!overwriteFiles) { for (const f of currentFiles) inUse.add(f.storage_config_id); }
      if (!overwriteMounts) {
        for (const m of await repos.mounts.list()) inUse.add(m.storage_config_id);
      }
      let kept = 0;
      for (const c of currentConfigs) {
        if (ids.has(c.id)) continue;
        if (inUse.has(c.id)) {
          kept++;
          continue;
        }
        final.delete(c.id);
        removedConfigs.push(c.id);
        b.write([repos.backup.removeConfigMutation(c.id)]);
        b.report("storage_config").removed++;
      }
      b.note("storage_config", "storage_config_kept_in_use", kept);
    }
    let unreadable = 0;
    let missing = 0;
    for (const c of incoming) {
      if (mode === "merge" && final.has(c.id)) {
        b.skip("storage_config", c.name, "id_exists");
        continue;
      }
      const { is_default: _d, ...rec } = c;
      b.put("storage_config", repos.backup.configMutations(rec as StorageConfigRecord));
      final.set(c.id, kindOf(c));
      if (kindOf(c) === "s3" && !c.secret_access_key_enc) missing++;
      if (c.secret_access_key_enc && box) {
        await box.open(c.secret_access_key_enc).catch(() => unreadable++);
      }
    }
    if (checkSecrets) {
      b.note("storage_config", "storage_secret_missing", missing);
      b.note("storage_config", "storage_secret_unreadable", unreadable);
    }
    // The default: the file's, else the current one if it stays, else the first config.
    const currentDefault = await repos.storage.getDefaultId();
    const fileDefault = incoming.find((c) => c.is_default && final.has(c.id))?.id ?? null;
    const keep = currentDefault && final.has(currentDefault) ? currentDefault : null;
    const next = (mode === "overwrite" ? fileDefault ?? keep : keep ?? fileDefault) ??
      [...final.keys()][0] ?? null;
    if (next !== currentDefault) b.write([repos.backup.defaultConfigMutation(next)]);
  }

  if (data.file_management) {
    const rows = data.file_management;
    for (const field of ["id", "slug"] as const) {
      const seen = new Set<string>();
      rows.forEach((f, i) => {
        if (seen.has(f[field])) {
          throw invalidFile("duplicate", `data.file_management.${i}.${field}`);
        }
        seen.add(f[field]);
      });
    }
    if (overwriteFiles) {
      b.removeAll("file_management", await repos.backup.moduleKeys("file_management"));
      b.report("file_management").removed = currentFiles.length;
      for (const f of currentFiles) add(removedBytes, f.storage_config_id, f.size);
    }
    const ids = new Set(overwriteFiles ? [] : currentFiles.map((f) => f.id));
    const slugs = new Set(overwriteFiles ? [] : currentFiles.map((f) => f.slug));
    for (const f of rows) {
      if (ids.has(f.id)) b.skip("file_management", f.slug, "id_exists");
      else if (slugs.has(f.slug)) b.skip("file_management", f.slug, "slug_exists");
      else if (!final.has(f.storage_config_id)) {
        b.skip("file_management", f.slug, "missing_storage_config");
      } else {
        b.put("file_management", repos.backup.fileMutations(f));
        add(addedBytes, f.storage_config_id, f.size);
      }
    }
  }

  const usage = await repos.backup.readUsage([...final.keys()]);
  const next = new Map<string, bigint>();
  for (const [id, used] of usage) {
    const value = used - (removedBytes.get(id) ?? 0n) + (addedBytes.get(id) ?? 0n);
    if (value !== used) next.set(id, value);
  }
  b.write(repos.backup.usageMutations(next, removedConfigs));
  return final;
}
