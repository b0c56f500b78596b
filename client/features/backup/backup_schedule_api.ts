/** The scheduled-backup calls (server/routes/backup.ts): schedule, runs, run now. */
import { api } from "../../api/client.ts";
import type {
  BackupRun,
  BackupSchedule,
  BackupScheduleView,
} from "../../../shared/schemas/backup_schedule.ts";

export type { BackupRun, BackupSchedule, BackupScheduleView };

/** A run writes and checks a whole backup: it may take minutes. */
const RUN_TIMEOUT_MS = 10 * 60_000;

/** The schedule (null before one is set) and its next run. */
export function getBackupSchedule(): Promise<BackupScheduleView> {
  return api<BackupScheduleView>("/admin/backup/schedule");
}

/** Sets the schedule; throws its field errors (400) or storage_config_not_found (404). */
export function saveBackupSchedule(s: BackupSchedule): Promise<BackupScheduleView> {
  return api<BackupScheduleView>("/admin/backup/schedule", { method: "PUT", body: s });
}

/** The latest runs, newest first. */
export function listBackupRuns(limit = 20): Promise<BackupRun[]> {
  return api<BackupRun[]>("/admin/backup/runs", { query: { limit } });
}

/** Runs the scheduled backup now and answers how it went. */
export function runBackupNow(): Promise<BackupRun> {
  return api<BackupRun>("/admin/backup/runs", { method: "POST", timeoutMs: RUN_TIMEOUT_MS });
}
