/**
 * CloudPaste pastes and files → Cubby records. Passwords are carried over from the plain copies
 * CloudPaste keeps (`paste_passwords`, `file_passwords`) by hashing them again; a protected
 * share without one is locked (LOCKED_PASSWORD_HASH) rather than opened to everyone.
 */
import { hashPassword } from "../services/crypto.ts";
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

/** CloudPaste pastes → Cubby pastes (see the module comment of cloudpaste_import.ts). */
export async function importPastes(
  rows: Rows,
  creator: (v: unknown) => string,
  iterations: number,
  log: ImportLog,
): Promise<PasteBackup[]> {
  const plain = plainPasswords(rows.paste_passwords, "paste_id");
  const slugs = new Set<string>();
  const out: PasteBackup[] = [];
  let locked = 0;
  for (const row of rows.pastes ?? []) {
    const slug = str(row.slug);
    const content = typeof row.content === "string" ? row.content : "";
    if (!SLUG_PATTERN.test(slug)) log.skip("text_management", slug || "?", "invalid_slug");
    else if (slugs.has(slug)) log.skip("text_management", slug, "slug_exists");
    else if (!content.trim()) log.skip("text_management", slug, "invalid_record");
    else {
      slugs.add(slug);
      const created = isoOrNull(row.created_at) ?? new Date().toISOString();
      out.push({
        id: timeId(created),
        slug,
        remark: (str(row.remark) || str(row.title)).slice(0, MAX_REMARK_LENGTH) || null,
        password_hash: await sharePassword(
          row.password,
          plain.get(str(row.id)),
          iterations,
          () => locked++,
        ),
        expires_at: isoOrNull(row.expires_at),
        max_views: int(row.max_views),
        views: int(row.views),
        created_at: created,
        updated_at: isoOrNull(row.updated_at) ?? created,
        created_by: creator(row.created_by),
        content,
      });
    }
  }
  log.note("text_management", "password_reset_required", locked);
  return out;
}

/** CloudPaste files → Cubby file shares, pointing at the imported storage configs. */
export async function importFiles(
  rows: Rows,
  configIds: Map<string, string>,
  creator: (v: unknown) => string,
  iterations: number,
  log: ImportLog,
): Promise<FileBackup[]> {
  const plain = plainPasswords(rows.file_passwords, "file_id");
  const slugs = new Set<string>();
  const out: FileBackup[] = [];
  let locked = 0;
  for (const row of rows.files ?? []) {
    const slug = str(row.slug);
    const configId = configIds.get(str(row.storage_config_id) || str(row.s3_config_id));
    const path = str(row.storage_path);
    if (!SLUG_PATTERN.test(slug)) log.skip("file_management", slug || "?", "invalid_slug");
    else if (slugs.has(slug)) log.skip("file_management", slug, "slug_exists");
    else if (!configId) log.skip("file_management", slug, "missing_storage_config");
    else if (!path || !str(row.filename)) log.skip("file_management", slug, "invalid_record");
    else {
      slugs.add(slug);
      const created = isoOrNull(row.created_at) ?? new Date().toISOString();
      out.push({
        id: timeId(created),
        slug,
        filename: str(row.filename).slice(0, 1000),
        size: int(row.size),
        mimetype: str(row.mimetype).slice(0, 255) || "application/octet-stream",
        remark: str(row.remark).slice(0, MAX_REMARK_LENGTH),
        password_hash: await sharePassword(
          row.password,
          plain.get(str(row.id)),
          iterations,
          () => locked++,
        ),
        expires_at: isoOrNull(row.expires_at),
        max_views: int(row.max_views),
        views: int(row.views),
        use_proxy: bool(row.use_proxy),
        storage_config_id: configId,
        storage_path: path.replace(/^\/+/, ""),
        etag: str(row.etag).slice(0, 200),
        created_at: created,
        updated_at: isoOrNull(row.updated_at) ?? created,
        created_by: creator(row.created_by),
      });
    }
  }
  log.note("file_management", "password_reset_required", locked);
  return out;
}
