/**
 * Turns a checked backup into the exact list of KV writes of a restore, and the report that
 * goes with it, without writing anything. Overwrite mode removes everything a chosen module
 * holds (records, indexes, chunks, counters) and writes the file's records; merge mode adds the
 * records whose ids, slugs, names or paths are free and reports the others as skipped. Indexes,
 * chunks and counters are always rebuilt from the records (backup_repo.ts).
 *
 * Storage configs are planned first, because files and mounts may only point at configs that
 * exist once the restore is done; usage counters move by the sizes of removed and added files.
 */
import type { Mutation } from "./backup_repo.ts";
import type { RestoreRepos } from "./backup_repos.ts";
import type { SecretBox } from "../services/secret_box.ts";
import { invalidFile, type ParsedBackup } from "./backup_format.ts";
import { planStorage } from "./backup_plan_storage.ts";
import { PlanBuilder } from "./backup_plan_builder.ts";
import type { BackupModule, RestoreMode, RestoreReport } from "../../shared/schemas/backup.ts";
import { isPathWithinBase } from "../../shared/permissions.ts";

/** A restore ready to run: its writes in order, and the report to answer with. */
export type RestorePlan = {
  mutations: Mutation[];
  report: Omit<RestoreReport, "duration_ms">;
};

/** Throws 400 backup_invalid_file when two records of a module share a unique field. */
function assertUnique<T>(module: BackupModule, rows: T[], fields: (keyof T)[]): void {
  for (const field of fields) {
    const seen = new Set<unknown>();
    for (const row of rows) {
      if (seen.has(row[field])) throw invalidFile("duplicate", `data.${module}.${String(field)}`);
      seen.add(row[field]);
    }
  }
}

/** Plans a restore; reads the current state but writes nothing. Throws 400 for bad files. */
export async function planRestore(
  repos: RestoreRepos,
  parsed: ParsedBackup,
  mode: RestoreMode,
  box: SecretBox | null,
): Promise<RestorePlan> {
  const { data, info } = parsed;
  const b = new PlanBuilder(info.modules, mode, parsed.skipped ?? [], parsed.notes ?? []);
  const overwrite = (m: BackupModule) => mode === "overwrite" && info.modules.includes(m);

  const configs = await planStorage(repos, data, mode, b, box, info.format === "cubby");

  if (data.mount_management) {
    const rows = data.mount_management;
    assertUnique("mount_management", rows, ["id", "mount_path"]);
    rows.forEach((m, i) => {
      if (rows.some((o, j) => j !== i && isPathWithinBase(o.mount_path, m.mount_path))) {
        throw invalidFile("overlap", `data.mount_management.${i}.mount_path`);
      }
    });
    const current = overwrite("mount_management") ? [] : await repos.mounts.list();
    if (overwrite("mount_management")) {
      b.removeAll("mount_management", await repos.backup.moduleKeys("mount_management"));
      b.report("mount_management").removed = (await repos.mounts.list()).length;
    }
    const taken = current.map((m) => m.mount_path);
    for (const m of rows) {
      const kind = configs.get(m.storage_config_id);
      const overlaps = taken.some((p) =>
        isPathWithinBase(p, m.mount_path) || isPathWithinBase(m.mount_path, p)
      );
      if (current.some((c) => c.id === m.id)) b.skip("mount_management", m.id, "id_exists");
      else if (overlaps) b.skip("mount_management", m.id, "path_exists");
      else if (!kind) b.skip("mount_management", m.id, "missing_storage_config");
      else if (kind !== m.storage_type) b.skip("mount_management", m.id, "storage_mismatch");
      else {
        taken.push(m.mount_path);
        b.put("mount_management", repos.backup.mountMutations(m));
      }
    }
  }

  if (data.text_management) {
    const rows = data.text_management;
    assertUnique("text_management", rows, ["id", "slug"]);
    const current = await repos.pastes.list();
    if (overwrite("text_management")) {
      b.removeAll("text_management", await repos.backup.moduleKeys("text_management"));
      b.report("text_management").removed = current.length;
    }
    const ids = new Set(overwrite("text_management") ? [] : current.map((p) => p.id));
    const slugs = new Set(overwrite("text_management") ? [] : current.map((p) => p.slug));
    for (const p of rows) {
      if (ids.has(p.id)) b.skip("text_management", p.slug, "id_exists");
      else if (slugs.has(p.slug)) b.skip("text_management", p.slug, "slug_exists");
      else b.put("text_management", repos.backup.pasteMutations(p));
    }
  }

  if (data.key_management) {
    const rows = data.key_management;
    assertUnique("key_management", rows, ["id", "name", "key_hash"]);
    const current = await repos.apiKeys.list();
    if (overwrite("key_management")) {
      b.removeAll("key_management", await repos.backup.moduleKeys("key_management"));
      b.report("key_management").removed = current.length;
    }
    const kept = overwrite("key_management") ? [] : current;
    for (const k of rows) {
      if (kept.some((c) => c.id === k.id)) b.skip("key_management", k.name, "id_exists");
      else if (kept.some((c) => c.name === k.name)) b.skip("key_management", k.name, "name_exists");
      else if (kept.some((c) => c.key_hash === k.key_hash)) {
        b.skip("key_management", k.name, "key_exists");
      } else b.put("key_management", repos.backup.apiKeyMutations(k));
    }
  }

  const account = data.account_management?.[0];
  if (account) {
    const { value: admin } = await repos.accounts.getAdmin();
    if (admin && mode === "merge") b.skip("account_management", account.username, "account_exists");
    else {
      const same = admin !== null && admin.username === account.username &&
        admin.password_hash === account.password_hash;
      b.sessionsRevoked = admin !== null && !same;
      b.put("account_management", [repos.backup.accountMutation({
        username: account.username,
        password_hash: account.password_hash,
        session_epoch: admin ? admin.session_epoch + (same ? 0 : 1) : 0,
        created_at: account.created_at,
        updated_at: account.updated_at,
      })]);
    }
  }

  if (data.system_settings) {
    const rows = data.system_settings;
    assertUnique("system_settings", rows, ["key"]);
    const current = await repos.backup.listSettings();
    if (overwrite("system_settings")) {
      b.removeAll("system_settings", await repos.backup.moduleKeys("system_settings"));
      b.report("system_settings").removed = current.length;
    }
    const existing = new Set(overwrite("system_settings") ? [] : current.map((s) => s.key));
    rows.forEach((s, i) => {
      if (JSON.stringify(s.value).length > 60_000) {
        throw invalidFile("value_too_large", `data.system_settings.${i}.value`);
      }
      if (existing.has(s.key)) b.skip("system_settings", s.key, "setting_exists");
      else b.put("system_settings", [repos.backup.settingMutation(s.key, s.value)]);
    });
  }

  return { mutations: b.mutations(), report: b.result(info.format) };
}
