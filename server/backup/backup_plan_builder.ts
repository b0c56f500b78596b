/**
 * Collects the writes and the report of a restore plan. Writes are kept as the final state of
 * each key (a record removed by overwrite mode and written again from the file is one set), and
 * come out ordered so that readers during the restore never follow a dangling pointer: content
 * chunks first, then records and indexes, then deletions.
 */
import type { Mutation } from "./backup_repo.ts";
import type {
  BackupInfo,
  BackupModule,
  ModuleReport,
  RestoreMode,
  RestoreNote,
  RestoreReport,
  SkippedRecord,
} from "../../shared/schemas/backup.ts";

/** The report lists at most this many skipped records (all are counted). */
const MAX_SKIPPED_LISTED = 200;

/** A stable text form of a KV key, for de-duplication. */
function keyId(key: Deno.KvKey): string {
  return key.map((p) => `${typeof p}:${String(p)}`).join("\u0000");
}

export class PlanBuilder {
  /** True when the restored account differs from the current one (sessions end). */
  sessionsRevoked = false;
  private final = new Map<string, Mutation>();
  private reports: Partial<Record<BackupModule, ModuleReport>> = {};
  private skipped: SkippedRecord[] = [];
  private skippedTotal = 0;
  private notes: RestoreNote[] = [];

  constructor(
    modules: BackupModule[],
    private mode: RestoreMode,
    skipped: SkippedRecord[],
    notes: RestoreNote[],
  ) {
    for (const m of modules) this.reports[m] = { restored: 0, skipped: 0, removed: 0 };
    for (const s of skipped) this.skip(s.module, s.id, s.reason);
    for (const n of notes) this.note(n.module, n.code, n.count);
  }

  /** The report of one module. */
  report(module: BackupModule): ModuleReport {
    return this.reports[module] ??= { restored: 0, skipped: 0, removed: 0 };
  }

  /** Deletes these keys unless a later write sets them again. */
  removeAll(_module: BackupModule, keys: Deno.KvKey[]): void {
    for (const key of keys) this.final.set(keyId(key), { key, delete: true });
  }

  /** Writes one record's keys and counts it as restored. */
  put(module: BackupModule, mutations: Mutation[]): void {
    this.write(mutations);
    this.report(module).restored++;
  }

  /** Writes keys that are not records (counters, pointers). */
  write(mutations: Mutation[]): void {
    for (const m of mutations) this.final.set(keyId(m.key), m);
  }

  /** Leaves a record of the file out. */
  skip(module: BackupModule, id: string, reason: string): void {
    this.report(module).skipped++;
    this.skippedTotal++;
    if (this.skipped.length < MAX_SKIPPED_LISTED) this.skipped.push({ module, id, reason });
  }

  /** Adds a note for the admin (merged per module and code). */
  note(module: BackupModule, code: string, count: number): void {
    if (count <= 0) return;
    const found = this.notes.find((n) => n.module === module && n.code === code);
    if (found) found.count += count;
    else this.notes.push({ module, code, count });
  }

  /** Every write, chunks first and deletions last. */
  mutations(): Mutation[] {
    const chunks: Mutation[] = [];
    const sets: Mutation[] = [];
    const deletes: Mutation[] = [];
    for (const m of this.final.values()) {
      if ("delete" in m) deletes.push(m);
      else if (m.key[0] === "paste_chunks") chunks.push(m);
      else sets.push(m);
    }
    return [...chunks, ...sets, ...deletes];
  }

  /** The report, without its duration. */
  result(format: BackupInfo["format"]): Omit<RestoreReport, "duration_ms"> {
    return {
      format,
      mode: this.mode,
      modules: this.reports,
      skipped: this.skipped,
      skipped_total: this.skippedTotal,
      notes: this.notes,
      sessions_revoked: this.sessionsRevoked,
    };
  }
}
