/**
 * CloudPaste pastes and files → Cubby records. Passwords are carried over from the plain copies
 * CloudPaste keeps (`paste_passwords`, `file_passwords`) by hashing them again; a protected
 * share without one is locked (LOCKED_PASSWORD_HASH) rather than opened to everyone.
 */
import { hashPassword } from "../lib/crypto.ts";
import type { Rows } from "./cloudpaste_storage.ts";
import {
  bool,
  type ImportLog,
  int,
  isoOrNull,
  LOCKED_PASSWORD_HASH,
  str,
  timeId,
} from "./cloudpaste_rows.ts";
import type { FileBackup, PasteBackup } from "./backup_format.ts";
import { MAX_REMARK_LENGTH, SLUG_PATTERN } from "../../shared/schemas/pastes.ts";

/** A password hash for a share: re-hashed from the plain copy, locked, or none. */
async function sharePassword(
  hashed: unknown,
  plain: string | undefined,
  iterations: number,
  onLocked: () => void,
): Promise<string | null> {
  if (plain) return iterations > 0 ? await hashPassword(plain, iterations) : "not-hashed";
  if (str(hashed)) {
    onLocked();
    return LOCKED_PASSWORD_HASH;
  }
  return null;
}

function plainPasswords(list: Record<string, unknown>[] | undefined, idField: string) {
  return new Map((list ?? []).map((r) => [str(r[idField]), str(r.plain_password)]));
}

/** What pastes and file shares carry alike, read from a CloudPaste row. */
type ShareCommon = Pick<
  PasteBackup,
  | "id"
  | "slug"
  | "password_hash"
  | "expires_at"
  | "max_views"
  | "views"
  | "created_at"
  | "updated_at"
  | "created_by"
>;

/** How one kind of CloudPaste share becomes a Cubby record. */
type ShareImport<T> = {
  module: "text_management" | "file_management";
  rows: Record<string, unknown>[] | undefined;
  passwords: Record<string, unknown>[] | undefined;
  /** The column of `passwords` that names the share. */
  passwordIdField: string;
  /** Why a row with a valid, unused slug is skipped, or null to import it. */
  reject: (row: Record<string, unknown>) => string | null;
  build: (row: Record<string, unknown>, common: ShareCommon) => T;
};

/**
 * Imports one kind of share: skips rows with a bad or repeated slug or that `reject` refuses
 * (logged), re-hashes plain passwords and notes how many shares stay locked.
 */
async function importShares<T>(
  kind: ShareImport<T>,
  creator: (v: unknown) => string,
  iterations: number,
  log: ImportLog,
): Promise<T[]> {
  const plain = plainPasswords(kind.passwords, kind.passwordIdField);
  const slugs = new Set<string>();
  const out: T[] = [];
  let locked = 0;
  for (const row of kind.rows ?? []) {
    const slug = str(row.slug);
    const reason = !SLUG_PATTERN.test(slug)
      ? "invalid_slug"
      : slugs.has(slug)
      ? "slug_exists"
      : kind.reject(row);
    if (reason) {
      log.skip(kind.module, slug || "?", reason);
      continue;
    }
    slugs.add(slug);
    const created = isoOrNull(row.created_at) ?? new Date().toISOString();
    const passwordHash = await sharePassword(
      row.password,
      plain.get(str(row.id)),
      iterations,
      () => locked++,
    );
    out.push(kind.build(row, {
      id: timeId(created),
      slug,
      password_hash: passwordHash,
      expires_at: isoOrNull(row.expires_at),
      max_views: int(row.max_views),
      views: int(row.views),
      created_at: created,
      updated_at: isoOrNull(row.updated_at) ?? created,
      created_by: creator(row.created_by),
    }));
  }
  log.note(kind.module, "password_reset_required", locked);
  return out;
}

const contentOf = (row: Record<string, unknown>) =>
  typeof row.content === "string" ? row.content : "";

/** CloudPaste pastes → Cubby pastes (see the module comment of cloudpaste_import.ts). */
export function importPastes(
  rows: Rows,
  creator: (v: unknown) => string,
  iterations: number,
  log: ImportLog,
): Promise<PasteBackup[]> {
  return importShares(
    {
      module: "text_management",
      rows: rows.pastes,
      passwords: rows.paste_passwords,
      passwordIdField: "paste_id",
      reject: (row) => contentOf(row).trim() ? null : "invalid_record",
      build: (row, common) => ({
        ...common,
        remark: (str(row.remark) || str(row.title)).slice(0, MAX_REMARK_LENGTH) || null,
        content: contentOf(row),
      }),
    },
    creator,
    iterations,
    log,
  );
}

/** CloudPaste files → Cubby file shares, pointing at the imported storage configs. */
export function importFiles(
  rows: Rows,
  configIds: Map<string, string>,
  creator: (v: unknown) => string,
  iterations: number,
  log: ImportLog,
): Promise<FileBackup[]> {
  const configOf = (row: Record<string, unknown>) =>
    configIds.get(str(row.storage_config_id) || str(row.s3_config_id));
  return importShares(
    {
      module: "file_management",
      rows: rows.files,
      passwords: rows.file_passwords,
      passwordIdField: "file_id",
      reject: (row) =>
        !configOf(row)
          ? "missing_storage_config"
          : !str(row.storage_path) || !str(row.filename)
          ? "invalid_record"
          : null,
      build: (row, common) => ({
        ...common,
        filename: str(row.filename).slice(0, 1000),
        size: int(row.size),
        mimetype: str(row.mimetype).slice(0, 255) || "application/octet-stream",
        remark: str(row.remark).slice(0, MAX_REMARK_LENGTH),
        use_proxy: bool(row.use_proxy),
        storage_config_id: configOf(row)!,
        storage_path: str(row.storage_path).replace(/^\/+/, ""),
        etag: str(row.etag).slice(0, 200),
      }),
    },
    creator,
    iterations,
    log,
  );
}
