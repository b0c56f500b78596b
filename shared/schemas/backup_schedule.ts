/**
 * Scheduled backups: the schedule an admin sets on the backup page, and the record of each run.
 * A run writes a backup of the chosen modules to a storage config under `.cubby-backups/`,
 * keeps the last `keep` of them, and checks each by restoring it into a scratch KV.
 */
import { z } from "zod";
import { BackupModuleSchema } from "./backup.ts";

/** True when `zone` is an IANA time zone this runtime knows ("Asia/Shanghai", "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const BackupScheduleSchema = z.object({
  enabled: z.boolean(),
  frequency: z.enum(["daily", "weekly"]),
  /** The day of a weekly backup: 0 Sunday … 6 Saturday. */
  weekday: z.number().int().min(0).max(6).default(1),
  /** The time of day, "HH:MM", in `timezone`. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "backup_schedule_time_invalid"),
  timezone: z.string().min(1).max(64).refine(isTimeZone, "backup_schedule_timezone_invalid"),
  modules: z.array(BackupModuleSchema).min(1, "backup_no_modules").max(7),
  storage_config_id: z.string().min(1, "storage_config_not_found").max(64),
  /** How many backups are kept; older ones are deleted after a successful run. */
  keep: z.number().int().min(1, "backup_keep_invalid").max(365, "backup_keep_invalid"),
});
export type BackupSchedule = z.infer<typeof BackupScheduleSchema>;

/** The schedule as stored: what was set, and when. */
export type StoredBackupSchedule = BackupSchedule & { updated_at: string };

/** One run of a scheduled (or started by hand) backup. */
export type BackupRun = {
  /** The scheduled instant (ISO) this run is for; a run started by hand has its start. */
  slot: string;
  trigger: "schedule" | "manual";
  status: "running" | "succeeded" | "failed";
  started_at: string;
  finished_at: string | null;
  modules: string[];
  storage_config_id: string;
  /** The stored object's key (`.cubby-backups/…`) once written. */
  file: string | null;
  size: number | null;
  /** The restore into a scratch KV: null until tried. */
  verified: boolean | null;
  /** Why the run failed: an error code, its text in English and its values; or null. */
  error: { code: string; message: string; params?: Record<string, unknown> } | null;
  /** True once a newer run made this file one too many and it was deleted. */
  pruned: boolean;
};

/** GET /api/admin/backup/schedule: the schedule (null before one is set) and its next run. */
export type BackupScheduleView = {
  schedule: StoredBackupSchedule | null;
  next_run: string | null;
};
