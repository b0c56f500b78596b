/** Small helpers for reading loosely typed CloudPaste rows (SQLite values) and logging skips. */
import { ulid } from "../lib/ulid.ts";
import type { BackupModule, RestoreNote, SkippedRecord } from "../../shared/schemas/backup.ts";

/**
 * The password hash of an imported share whose password could not be carried over. It is not a
 * valid hash, so no password opens it: the share stays protected until the admin sets a new one.
 */
export const LOCKED_PASSWORD_HASH = "locked$cloudpaste-import$reset-required";

/** A string column ("" for null or a non-string). */
export function str(v: unknown): string {
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return "";
}

/** A boolean column: SQLite stores 0/1, some exports use strings. */
export function bool(v: unknown): boolean {
  return v === true || v === 1 || v === "1" || v === "true";
}

/** A non-negative integer column (0 for null or garbage). */
export function int(v: unknown): number {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0
    ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER)
    : 0;
}

/**
 * A time column as ISO 8601 UTC, or null. SQLite's `CURRENT_TIMESTAMP` (`2024-01-02 03:04:05`)
 * is UTC without a zone; numbers are Unix seconds or milliseconds.
 */
export function isoOrNull(v: unknown): string | null {
  let ms = NaN;
  if (typeof v === "number" && Number.isFinite(v)) ms = v < 1e12 ? v * 1000 : v;
  else if (typeof v === "string" && v.trim()) {
    const s = v.trim();
    ms = Date.parse(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s) ? s.replace(" ", "T") + "Z" : s,
    );
  }
  if (!Number.isFinite(ms) || ms < 0 || ms > 8.64e15) return null;
  return new Date(ms).toISOString();
}

/** A fresh ULID whose time part is `iso`, so imported rows list in their original order. */
export function timeId(iso: string): string {
  const ms = Date.parse(iso);
  return ulid(Number.isFinite(ms) && ms >= 0 && ms < 2 ** 48 ? ms : Date.now());
}

/** `apikey:<id>` creators follow the key's new id; everything else was the admin. */
export function mapCreator(v: unknown, keyIds: Map<string, string>): string {
  const s = str(v);
  if (!s.startsWith("apikey:")) return "admin";
  const old = s.slice("apikey:".length);
  return `apikey:${keyIds.get(old) ?? old}`.slice(0, 100);
}

/** Collects the rows left out and the notes of an import. */
export class ImportLog {
  readonly skipped: SkippedRecord[] = [];
  readonly notes: RestoreNote[] = [];

  /** Records a row that is not imported. */
  skip(module: BackupModule, id: string, reason: string): void {
    this.skipped.push({ module, id, reason });
  }

  /** Records something the admin should know (ignored when count is 0). */
  note(module: BackupModule, code: string, count: number): void {
    if (count > 0) this.notes.push({ module, code, count });
  }
}
