/**
 * Reads the records of the chosen modules for a backup. Pastes carry their whole content,
 * reassembled from its chunks; files carry metadata only (their objects stay in storage);
 * storage configs keep their secrets sealed; API keys and the admin account carry hashes only;
 * sessions are never exported. Records are read one module after another, not as one
 * snapshot: each record is consistent, but writes during a backup may or may not be in it.
 */
import type { PasteEntry } from "../shares/paste_repo.ts";
import type { RestoreRepos } from "./backup_repos.ts";
import type {
  AccountBackup,
  ApiKeyBackup,
  BackupData,
  FileBackup,
  PasteBackup,
  SettingBackup,
  StorageConfigBackup,
} from "./backup_format.ts";
import type { BackupModule } from "../../shared/schemas/backup.ts";

const decoder = new TextDecoder();

/** True for values that survive a JSON round trip unchanged (settings must be plain JSON). */
function isPlainJson(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isPlainJson);
  if (typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.values(v as object).every(isPlainJson);
  }
  return false;
}

async function exportPastes(repos: RestoreRepos): Promise<PasteBackup[]> {
  const recs = (await repos.pastes.list()).reverse();
  const views = await repos.pastes.getViews(recs);
  const out: PasteBackup[] = [];
  for (const rec of recs) {
    // A paste edited meanwhile has new chunks: read the record again and retry.
    let entry: PasteEntry | null = { value: rec, versionstamp: "" };
    let bytes: Uint8Array | null = null;
    for (let attempt = 0; attempt < 5 && entry && !bytes; attempt++) {
      bytes = await repos.pastes.readContent(entry.value);
      if (!bytes) entry = await repos.pastes.get(rec.id);
    }
    if (!entry || !bytes) continue; // deleted during the backup
    const p = entry.value;
    out.push({
      id: p.id,
      slug: p.slug,
      remark: p.remark,
      password_hash: p.password_hash,
      expires_at: p.expires_at,
      max_views: p.max_views,
      views: views.get(p.id) ?? 0,
      created_at: p.created_at,
      updated_at: p.updated_at,
      created_by: p.created_by,
      content: decoder.decode(bytes),
      ...(p.e2e ? { e2e: p.e2e } : {}),
    });
  }
  return out;
}

async function exportFiles(repos: RestoreRepos): Promise<FileBackup[]> {
  const out: FileBackup[] = [];
  for (const f of (await repos.files.list(null)).reverse()) {
    out.push({ ...f, views: await repos.files.readViews(f) });
  }
  return out;
}

async function exportConfigs(repos: RestoreRepos): Promise<StorageConfigBackup[]> {
  const defaultId = await repos.storage.getDefaultId();
  return (await repos.storage.list()).map((c) => ({ ...c, is_default: c.id === defaultId }));
}

async function exportKeys(repos: RestoreRepos): Promise<ApiKeyBackup[]> {
  const recs = await repos.apiKeys.list();
  const used = await repos.apiKeys.lastUsed(recs.map((r) => r.id));
  return recs.map((r) => ({ ...r, last_used: used.get(r.id) ?? null }));
}

async function exportAccount(repos: RestoreRepos): Promise<AccountBackup[]> {
  const { value } = await repos.accounts.getAdmin();
  if (!value) return [];
  const { username, password_hash, created_at, updated_at } = value;
  return [{ username, password_hash, created_at, updated_at }];
}

async function exportSettings(
  repos: RestoreRepos,
  log: (msg: string) => void,
): Promise<SettingBackup[]> {
  const out: SettingBackup[] = [];
  for (const s of await repos.backup.listSettings()) {
    if (isPlainJson(s.value)) out.push(s as SettingBackup);
    else log(`backup: setting "${s.key}" is not plain JSON and was left out`);
  }
  return out;
}

/** The records of each chosen module. */
export async function exportData(
  repos: RestoreRepos,
  modules: BackupModule[],
  log: (msg: string) => void,
): Promise<BackupData> {
  const data: BackupData = {};
  for (const m of modules) {
    if (m === "text_management") data[m] = await exportPastes(repos);
    else if (m === "file_management") data[m] = await exportFiles(repos);
    else if (m === "mount_management") data[m] = [...await repos.mounts.list()];
    else if (m === "storage_config") data[m] = await exportConfigs(repos);
    else if (m === "key_management") data[m] = await exportKeys(repos);
    else if (m === "account_management") data[m] = await exportAccount(repos);
    else data[m] = await exportSettings(repos, log);
  }
  return data;
}
