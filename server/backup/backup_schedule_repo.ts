/**
 * The backup schedule and its runs in KV. A run's record is also its claim: the first instance
 * to create the record of a slot (a checked commit on an absent key) runs it, every other
 * instance sees the record and leaves the slot alone, so a slot runs once however many
 * instances share the KV. Records are kept 90 days.
 */
import { keys } from "../kv/keys.ts";
import type { BackupRun, StoredBackupSchedule } from "../../shared/schemas/backup_schedule.ts";

/** How long run records are kept. */
const RUN_TTL_MS = 90 * 24 * 60 * 60_000;

export class BackupScheduleRepo {
  constructor(private kv: Deno.Kv) {}

  /** The schedule, or null before one is set. */
  async getSchedule(): Promise<StoredBackupSchedule | null> {
    return (await this.kv.get<StoredBackupSchedule>(keys.backupSchedule())).value;
  }

  async putSchedule(s: StoredBackupSchedule): Promise<void> {
    await this.kv.set(keys.backupSchedule(), s);
  }

  /** Creates the record of `run.slot`; false when another instance (or run) has it already. */
  async claim(run: BackupRun): Promise<boolean> {
    const key = keys.backupRuns(run.slot);
    const res = await this.kv.atomic().check({ key, versionstamp: null })
      .set(key, run, { expireIn: RUN_TTL_MS }).commit();
    return res.ok;
  }

  /** Writes a run's record again (its outcome, or that its file was pruned). */
  async save(run: BackupRun): Promise<void> {
    await this.kv.set(keys.backupRuns(run.slot), run, { expireIn: RUN_TTL_MS });
  }

  /** The run of a slot, or null. */
  async get(slot: string): Promise<BackupRun | null> {
    return (await this.kv.get<BackupRun>(keys.backupRuns(slot))).value;
  }

  /** The runs, newest first, at most `limit`. */
  async list(limit = 50): Promise<BackupRun[]> {
    const out: BackupRun[] = [];
    const iter = this.kv.list<BackupRun>({ prefix: keys.backupRunsPrefix() }, {
      reverse: true,
      limit,
    });
    for await (const e of iter) out.push(e.value);
    return out;
  }
}
