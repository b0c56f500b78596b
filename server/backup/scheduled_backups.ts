/**
 * Scheduled backups. Every instance ticks once a minute (backup_timer.ts); a tick finds the
 * schedule's latest due slot and tries to claim it in KV (backup_schedule_repo.ts): the one
 * instance whose claim commits runs it, so a slot runs once whatever the number of instances.
 * A run writes the backup of the chosen modules to the chosen storage config under
 * `.cubby-backups/` (which mounts cannot reach), restores it into a scratch KV to check it
 * (backup_verify.ts), and, when all went well, deletes the backups beyond the last `keep`.
 */
import { join } from "node:path";
import { AppError, badRequest } from "../errors.ts";
import type { BackupService } from "./backup.ts";
import type { BackupScheduleRepo } from "./backup_schedule_repo.ts";
import { latestSlot, nextSlot } from "./backup_slots.ts";
import { verifyInScratchKv } from "./backup_verify.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { SecretBox } from "../services/secret_box.ts";
import { BACKUP_OBJECTS_FOLDER } from "../storage/share_area.ts";
import { errorMessage } from "../../shared/errors.ts";
import type {
  BackupRun,
  BackupSchedule,
  BackupScheduleView,
  StoredBackupSchedule,
} from "../../shared/schemas/backup_schedule.ts";

/** A slot missed by more than this (the server was down) is skipped; the next one runs. */
export const SLOT_GRACE_MS = 12 * 60 * 60_000;
/** A run still "running" after this long died with its process: it is shown as failed. */
export const RUN_STALE_MS = 60 * 60_000;

export type ScheduledBackupDeps = {
  repo: BackupScheduleRepo;
  backup: BackupService;
  storage: StorageConfigService;
  box: SecretBox | null;
  kdfIterations: number;
  /** Where the scratch KVs of the checks go (a folder under DATA_DIR). */
  scratchDir: string;
  log: (msg: string) => void;
};

/**
 * The object key of a run's file: `.cubby-backups/cubby-backup-YYYYMMDD-HHmmss.json` for a
 * slot (on the minute), with milliseconds and `-manual` for a run started by hand, so no two
 * runs share a file.
 */
export function backupObjectKey(run: Pick<BackupRun, "slot" | "trigger">): string {
  const stamp = run.slot.replace(/[-:]/g, "").replace("T", "-").replace("Z", "");
  const name = run.trigger === "manual"
    ? `${stamp.replace(".", "")}-manual`
    : stamp.replace(/\.\d+$/, "");
  return `${BACKUP_OBJECTS_FOLDER}/cubby-backup-${name}.json`;
}

/** An error as a run keeps it: its code, its English text and its values. */
function describe(err: unknown): BackupRun["error"] {
  if (err instanceof AppError) {
    return {
      code: err.code,
      message: errorMessage(err.code, "en-US", err.details),
      params: err.details ?? {},
    };
  }
  return { code: "backup_failed", message: err instanceof Error ? err.message : String(err) };
}

export class ScheduledBackups {
  constructor(private deps: ScheduledBackupDeps) {}

  /** The schedule and when it next runs. */
  async view(now = Date.now()): Promise<BackupScheduleView> {
    const schedule = await this.deps.repo.getSchedule();
    return {
      schedule,
      next_run: schedule?.enabled ? new Date(nextSlot(schedule, now)).toISOString() : null,
    };
  }

  /** Sets the schedule; 404 storage_config_not_found for a config that does not exist. */
  async setSchedule(input: BackupSchedule): Promise<BackupScheduleView> {
    await this.deps.storage.getRecord(input.storage_config_id);
    const stored: StoredBackupSchedule = { ...input, updated_at: new Date().toISOString() };
    await this.deps.repo.putSchedule(stored);
    return await this.view();
  }

  /** The runs, newest first; one left "running" by a process that died shows as failed. */
  async runs(limit = 50, now = Date.now()): Promise<BackupRun[]> {
    return (await this.deps.repo.list(limit)).map((run) =>
      run.status === "running" && now - Date.parse(run.started_at) > RUN_STALE_MS
        ? {
          ...run,
          status: "failed" as const,
          error: {
            code: "backup_run_interrupted",
            message: errorMessage("backup_run_interrupted", "en-US"),
            params: {},
          },
        }
        : run
    );
  }

  /**
   * Runs the schedule's latest due slot when this instance claims it. Nothing happens without
   * an enabled schedule, for a slot before the schedule was last set, a slot missed by more
   * than SLOT_GRACE_MS, or a slot another instance (or an earlier tick) claimed. Returns the
   * run, or null.
   */
  async tick(now = Date.now()): Promise<BackupRun | null> {
    const schedule = await this.deps.repo.getSchedule();
    if (!schedule?.enabled) return null;
    const slot = latestSlot(schedule, now);
    if (slot === null || slot < Date.parse(schedule.updated_at) || now - slot > SLOT_GRACE_MS) {
      return null;
    }
    const run = this.newRun(new Date(slot).toISOString(), "schedule", schedule);
    if (!await this.deps.repo.claim(run)) return null;
    return await this.execute(run, schedule);
  }

  /** Runs a backup now, as the schedule says (enabled or not); 400 without a schedule. */
  async runNow(): Promise<BackupRun> {
    const schedule = await this.deps.repo.getSchedule();
    if (!schedule) throw badRequest("backup_schedule_missing");
    const run = this.newRun(new Date().toISOString(), "manual", schedule);
    if (!await this.deps.repo.claim(run)) throw new AppError("conflict", 409);
    return await this.execute(run, schedule);
  }

  private newRun(slot: string, trigger: BackupRun["trigger"], s: BackupSchedule): BackupRun {
    return {
      slot,
      trigger,
      status: "running",
      started_at: new Date().toISOString(),
      finished_at: null,
      modules: s.modules,
      storage_config_id: s.storage_config_id,
      file: null,
      size: null,
      verified: null,
      error: null,
      pruned: false,
    };
  }

  /** Writes, checks and (on success) prunes; records the outcome, which it also returns. */
  private async execute(run: BackupRun, s: BackupSchedule): Promise<BackupRun> {
    const done = (patch: Partial<BackupRun>): BackupRun => ({
      ...run,
      ...patch,
      finished_at: new Date().toISOString(),
    });
    let result: BackupRun;
    try {
      const { file } = await this.deps.backup.create(s.modules);
      const text = JSON.stringify(file, null, 2);
      const bytes = new TextEncoder().encode(text);
      const cfg = await this.deps.storage.getRecord(s.storage_config_id);
      const driver = await this.deps.storage.driverFor(cfg);
      const key = backupObjectKey(run);
      await driver.put(key, bytes, { contentType: "application/json", size: bytes.length });
      const check = await verifyInScratchKv(text, {
        dir: this.deps.scratchDir,
        box: this.deps.box,
        kdfIterations: this.deps.kdfIterations,
      });
      result = check.ok
        ? done({ status: "succeeded", file: key, size: bytes.length, verified: true })
        : done({
          status: "failed",
          file: key,
          size: bytes.length,
          verified: false,
          error: {
            code: "backup_verify_failed",
            message: errorMessage("backup_verify_failed", "en-US", { reason: check.message }),
            params: { reason: check.message },
          },
        });
    } catch (err) {
      this.deps.log(`scheduled backup ${run.slot} failed: ${describe(err)?.message}`);
      result = done({ status: "failed", error: describe(err) });
    }
    await this.deps.repo.save(result);
    if (result.status === "succeeded") await this.prune(s.keep);
    return result;
  }

  /** Deletes the files of the succeeded runs beyond the newest `keep`, and marks them pruned. */
  private async prune(keep: number): Promise<void> {
    const kept = (await this.deps.repo.list(1000)).filter((r) =>
      r.status === "succeeded" && r.file && !r.pruned
    );
    for (const old of kept.slice(keep)) {
      try {
        const cfg = await this.deps.storage.getRecord(old.storage_config_id);
        await (await this.deps.storage.driverFor(cfg)).delete(old.file!);
        await this.deps.repo.save({ ...old, pruned: true });
      } catch (err) {
        this.deps.log(`could not delete old backup ${old.file}: ${describe(err)?.message}`);
      }
    }
  }
}

/** The folder under DATA_DIR where the checks' scratch KVs go. */
export function scratchDirOf(dataDir: string): string {
  return join(dataDir, "backup-checks");
}
