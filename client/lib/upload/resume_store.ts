/**
 * What makes a multipart upload resumable after a reload: for each unfinished upload, the file's
 * name, size and lastModified, the storage config, and the server's file_id and part layout,
 * kept in localStorage. Choosing the same file again (same name, size and lastModified) for the
 * same config finds the record; the uploader then asks the server which parts it has.
 * Records expire with the server's pending uploads (24 h), so older ones are dropped.
 */

const STORE_KEY = "cubby.multipart.resume";
/** A little under the server's 24 h pending-upload lifetime. */
const MAX_AGE_MS = 23 * 60 * 60_000;
const MAX_RECORDS = 20;

/**
 * The identity of a file for resuming: name, size and lastModified, per storage config; an
 * encrypted upload (`e2e`) is another upload than a plain one of the same file.
 */
export type ResumeKey = {
  name: string;
  size: number;
  lastModified: number;
  configId: string;
  e2e?: boolean;
};

/** One unfinished multipart upload. */
export type ResumeRecord = ResumeKey & {
  fileId: string;
  partSize: number;
  totalParts: number;
  /** When the upload started (ms since the epoch). */
  savedAt: number;
};

/** The resume identity of a file, or null when it has no usable lastModified. */
export function resumeKeyOf(
  file: { name?: string; size: number; lastModified?: number },
  filename: string,
  configId: string | undefined,
  e2e = false,
): ResumeKey | null {
  if (typeof file.lastModified !== "number" || !Number.isFinite(file.lastModified)) return null;
  return {
    name: filename,
    size: file.size,
    lastModified: file.lastModified,
    configId: configId ?? "",
    ...(e2e ? { e2e } : {}),
  };
}

function sameFile(a: Omit<ResumeKey, "configId">, b: Omit<ResumeKey, "configId">): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified &&
    !!a.e2e === !!b.e2e;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function isRecord(v: unknown): v is ResumeRecord {
  const r = v as ResumeRecord;
  return !!r && typeof r.name === "string" && typeof r.size === "number" &&
    typeof r.lastModified === "number" && typeof r.configId === "string" &&
    typeof r.fileId === "string" && typeof r.partSize === "number" &&
    typeof r.totalParts === "number" && typeof r.savedAt === "number";
}

/** Every live record (expired and malformed ones left out). */
export function loadResumeRecords(now = Date.now()): ResumeRecord[] {
  const raw = storage()?.getItem(STORE_KEY);
  if (!raw) return [];
  try {
    const list = JSON.parse(raw);
    return Array.isArray(list)
      ? list.filter((r) => isRecord(r) && now - r.savedAt < MAX_AGE_MS)
      : [];
  } catch {
    return [];
  }
}

function write(records: ResumeRecord[]): void {
  try {
    const s = storage();
    if (!s) return;
    if (records.length === 0) s.removeItem(STORE_KEY);
    else s.setItem(STORE_KEY, JSON.stringify(records.slice(-MAX_RECORDS)));
  } catch { /* storage full or unavailable: the upload just is not resumable */ }
}

/** The record of this file and config, if any. */
export function findResume(key: ResumeKey, now = Date.now()): ResumeRecord | null {
  return loadResumeRecords(now).find((r) => sameFile(r, key) && r.configId === key.configId) ??
    null;
}

/** True when some config holds an unfinished upload of this file. */
export function hasResume(file: Omit<ResumeKey, "configId">, now = Date.now()): boolean {
  return loadResumeRecords(now).some((r) => sameFile(r, file));
}

/** Remembers an upload (replacing an older one of the same file and config). */
export function saveResume(record: ResumeRecord): void {
  const others = loadResumeRecords().filter((r) =>
    r.fileId !== record.fileId && !(sameFile(r, record) && r.configId === record.configId)
  );
  write([...others, record]);
}

/** Forgets an upload (finished, aborted, or gone from the server). */
export function forgetResume(fileId: string): void {
  const all = loadResumeRecords();
  const rest = all.filter((r) => r.fileId !== fileId);
  if (rest.length !== all.length) write(rest);
}
