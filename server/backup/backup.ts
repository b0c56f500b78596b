/**
 * Backup and restore (docs/PRODUCT.md §2.1, §3.9 and §14.4). A backup
 * is one JSON file (backup_format.ts); a restore checks the whole file first, then plans every
 * write (backup_plan.ts) and runs them through the restore journal (backup/backup_journal.ts), so
 * it is all or nothing even though KV commits are small, and a crash mid-restore is rolled
 * back at the next start. CloudPaste backups are imported through the same path.
 */
import { ulid } from "../lib/ulid.ts";
import { AppError, conflict } from "../errors.ts";
import type { SecretBox } from "../services/secret_box.ts";
import {
  backupChecksum,
  type BackupFile,
  invalidFile,
  type ParsedBackup,
  parseJsonText,
  readCubbyBackup,
} from "./backup_format.ts";
import { importCloudPaste, isCloudPasteBackup } from "./cloudpaste_import.ts";
import { planRestore } from "./backup_plan.ts";
import type { RestoreRepos } from "./backup_repos.ts";
import { exportData } from "./backup_export.ts";
import { JournalLostError } from "./backup_journal.ts";
import { APP_VERSION } from "../../shared/constants.ts";
import {
  BACKUP_FORMAT_VERSION,
  BACKUP_MODULES,
  type BackupInfo,
  type BackupModule,
  type RestoreMode,
  type RestoreReport,
  type RestoreStatus,
  withDependencies,
} from "../../shared/schemas/backup.ts";

export type BackupDeps = RestoreRepos & {
  /** Checks that restored storage secrets open with this instance's key (null: skip). */
  box: SecretBox | null;
  /** PBKDF2 cost for share passwords re-hashed from a CloudPaste import. */
  kdfIterations: number;
  /** Runs after a restore is committed: drop caches, recount the dashboard. */
  afterRestore?: () => Promise<void>;
  log?: (msg: string) => void;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** `cubby-backup-YYYYMMDD-HHmmss.json`, in UTC. */
export function backupFilename(createdAt: string): string {
  const d = createdAt.replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `cubby-backup-${d}.json`;
}

export class BackupService {
  private log: (msg: string) => void;

  constructor(private deps: BackupDeps) {
    this.log = deps.log ?? console.log;
  }

  /** Builds a backup of the chosen modules plus their dependencies. Throws 500 backup_failed. */
  async create(chosen: BackupModule[]): Promise<{ file: BackupFile; filename: string }> {
    const modules = withDependencies(chosen);
    try {
      const data = await exportData(this.deps, modules, this.log);
      const createdAt = new Date().toISOString();
      const file: BackupFile = {
        metadata: {
          app: "cubby",
          version: BACKUP_FORMAT_VERSION,
          app_version: APP_VERSION,
          created_at: createdAt,
          type: modules.length === BACKUP_MODULES.length ? "full" : "partial",
          modules,
          counts: Object.fromEntries(modules.map((m) => [m, data[m]?.length ?? 0])),
          checksum: await backupChecksum(data),
        },
        data,
      };
      return { file, filename: backupFilename(createdAt) };
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.log(`backup failed: ${err instanceof Error ? err.stack : err}`);
      throw new AppError("backup_failed", 500);
    }
  }

  /**
   * Reads and checks a file (Cubby or CloudPaste) without changing anything. Throws 400
   * backup_parse_failed, backup_invalid_file, backup_checksum_mismatch or
   * backup_unsupported_version. Without `forRestore`, imported passwords are not re-hashed.
   */
  async read(text: string, forRestore = true): Promise<ParsedBackup> {
    const root = parseJsonText(text);
    if (!isObject(root) || !isObject(root.metadata) || !isObject(root.data)) {
      throw invalidFile("structure");
    }
    if (root.metadata.app === "cubby") return await readCubbyBackup(root.metadata, root.data);
    if (root.metadata.app === undefined && isCloudPasteBackup(root.metadata, root.data)) {
      return await importCloudPaste(root.metadata, root.data, {
        kdfIterations: forRestore ? this.deps.kdfIterations : 0,
      });
    }
    throw invalidFile("unknown_format");
  }

  /** What a file holds, for the screen to show before a restore. */
  async inspect(text: string): Promise<BackupInfo> {
    return (await this.read(text, false)).info;
  }

  /**
   * Restores a file in overwrite or merge mode, all or nothing. Nothing is written unless the
   * whole file passes its checks. Throws the 400s of `read`, 409 restore_in_progress, or 500
   * restore_failed (after rolling back).
   */
  async restore(text: string, mode: RestoreMode): Promise<RestoreReport> {
    const started = performance.now();
    const parsed = await this.read(text);
    const journal = this.deps.backup.journal();
    if (await journal.recover() === "busy") throw conflict("restore_in_progress");
    if (!await journal.begin(ulid(), mode, parsed.info.modules, 0)) {
      throw conflict("restore_in_progress");
    }
    let plan;
    try {
      plan = await planRestore(this.deps, parsed, mode, this.deps.box);
    } catch (err) {
      await journal.release();
      throw err;
    }
    try {
      await journal.run(plan.mutations);
    } catch (err) {
      this.log(`restore failed: ${err instanceof Error ? err.stack : err}`);
      if (err instanceof JournalLostError) throw conflict("restore_in_progress");
      throw new AppError("restore_failed", 500);
    }
    await this.runAfterRestore();
    return { ...plan.report, duration_ms: Math.round(performance.now() - started) };
  }

  /** The restore under way, if any. */
  status(): Promise<RestoreStatus> {
    return this.deps.backup.journal().status();
  }

  /**
   * Repairs a restore that died mid-way; main.ts calls it before serving. A marker with a
   * fresh heartbeat belongs to a process that died moments ago or is alive elsewhere (another
   * instance, the CLI): this waits until the heartbeat moves (alive: left alone) or goes stale
   * (dead: rolled back), at most JOURNAL_STALE_MS. Returns what was found.
   */
  async recoverInterruptedRestore(): Promise<string> {
    const journal = this.deps.backup.journal();
    let found = await journal.recover();
    const first = found === "busy" ? (await journal.getMarker()).value?.heartbeat_at : null;
    while (found === "busy") {
      await new Promise((r) => setTimeout(r, 500));
      const marker = (await journal.getMarker()).value;
      if (!marker) found = "none";
      else if (marker.heartbeat_at !== first) break;
      else found = await journal.recover();
    }
    if (found === "busy") this.log("A restore is running in another process; it was left alone.");
    else await this.reportRecovery(found);
    return found;
  }

  /**
   * Repairs a restore whose process died (its heartbeat older than JOURNAL_STALE_MS), without
   * waiting: every instance calls it every few seconds (main.ts), so a restore killed on one
   * instance is rolled back while the others keep serving, not only at the next start.
   */
  async repairDeadRestore(): Promise<string> {
    const found = await this.deps.backup.journal().recover();
    await this.reportRecovery(found);
    return found;
  }

  private async reportRecovery(found: string): Promise<void> {
    if (found === "applying" || found === "rolling_back") {
      this.log("An interrupted restore was found and rolled back: the previous data is intact.");
      await this.runAfterRestore();
    } else if (found === "committed") {
      this.log("An interrupted restore had committed: its clean-up is finished.");
      await this.runAfterRestore();
    } else if (found === "capturing") {
      this.log("An interrupted restore had not started writing: its journal was removed.");
    }
  }

  private async runAfterRestore(): Promise<void> {
    try {
      await this.deps.afterRestore?.();
    } catch (err) {
      this.log(`after restore: ${err instanceof Error ? err.message : err}`);
    }
  }
}
