/**
 * What a new file share must pass before it is recorded (size limit, quota, slug) and how its
 * record and storage path are built.
 */
import type { FileRecord, FileRepo } from "./file_repo.ts";
import type { StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { SettingsService } from "../services/settings.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import { AppError, badRequest, conflict, fileTooLarge, forbidden } from "../errors.ts";
import { hashAccessToken, hashPassword, randomBase62 } from "../lib/crypto.ts";
import { SHARE_OBJECTS_FOLDER } from "../storage/share_area.ts";
import { slugHeldBySweptShare } from "./tombstones.ts";
import { RANDOM_SLUG_LENGTH } from "../../shared/constants.ts";
import { isReservedSlug } from "../../shared/slug.ts";
import type { FileShareOptions } from "../../shared/schemas/files.ts";
import { E2E_STORED_NAME, E2E_STORED_TYPE, isAccessToken } from "../../shared/schemas/e2e.ts";

const HOUR_MS = 3_600_000;

/**
 * When a new share expires: the exact `expires_at` if given (400 expires_at_invalid when past),
 * else `expires_in` hours from now, else never.
 */
export function shareExpiry(opts: FileShareOptions, now: number): string | null {
  if (opts.expires_at) {
    const at = Date.parse(opts.expires_at);
    if (at <= now) throw badRequest("expires_at_invalid");
    return new Date(at).toISOString();
  }
  return opts.expires_in ? new Date(now + opts.expires_in * HOUR_MS).toISOString() : null;
}

/** Throws 403 unless the caller is the admin or the key that created the record. */
export function assertCanManage(auth: Auth, createdBy: string): void {
  if (auth.type === "admin") return;
  if (auth.type === "apikey" && createdBy === `apikey:${auth.id}`) return;
  throw forbidden("not_creator");
}

/** A file name safe to use as the last segment of a storage key. */
export function safeFilename(name: string): string {
  // deno-lint-ignore no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, "_").replace(/^\.+/, "_").trim();
  return (cleaned || "file").slice(0, 200);
}

/**
 * The name and type a new share is stored under: an end-to-end encrypted one gets neutral
 * ones, whatever the client sent, since the real ones travel sealed in `e2e.meta`. Throws 400
 * e2e_access_invalid when such a share's password is not an access token.
 */
export function storedNameOf(
  opts: FileShareOptions,
  filename: string,
  mimetype: string,
): { filename: string; mimetype: string } {
  if (!opts.e2e) return { filename, mimetype };
  if (!isAccessToken(opts.password)) throw badRequest("e2e_access_invalid");
  return { filename: E2E_STORED_NAME, mimetype: E2E_STORED_TYPE };
}

/** The checks and record building shared by every way of creating a file share. */
export class FileAdmission {
  constructor(
    private repo: FileRepo,
    private storage: StorageConfigService,
    private settings: SettingsService,
    private kdfIterations: number,
  ) {}

  /** The requested slug (400 slug_reserved, 409 slug_taken), or a free random one. */
  async pickSlug(requested: string | undefined): Promise<string> {
    if (requested) {
      if (isReservedSlug(requested)) {
        throw badRequest("slug_reserved");
      }
      if (!await this.repo.tombstones.release(requested)) throw slugHeldBySweptShare();
      if (!await this.repo.isSlugFree(requested)) throw conflict("slug_taken");
      return requested;
    }
    for (let length = RANDOM_SLUG_LENGTH;; length++) {
      for (let i = 0; i < 5; i++) {
        const slug = randomBase62(length);
        if (await this.repo.isSlugFree(slug)) return slug;
      }
    }
  }

  /** Throws 413 storage_quota_exceeded when `size` more bytes do not fit in `cfg`. */
  async checkQuota(cfg: StorageConfigRecord, size: number): Promise<void> {
    if (cfg.total_storage_bytes === null) return;
    const used = await this.storage.usedBytes(cfg.id);
    if (used + size > cfg.total_storage_bytes) {
      throw new AppError("storage_quota_exceeded", 413, {
        file_size: size,
        remaining: Math.max(0, cfg.total_storage_bytes - used),
        total: cfg.total_storage_bytes,
      });
    }
  }

  /** Throws 413 file_too_large over the upload limit; returns the limit. */
  async checkSize(size: number | undefined): Promise<number> {
    const max = await this.settings.getMaxUploadBytes();
    if (size !== undefined && size > max) {
      throw fileTooLarge(max, size);
    }
    return max;
  }

  /** Where a new share object goes: the share area, by month, then the file id. */
  storagePath(id: string, filename: string): string {
    const d = new Date();
    const month = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    return `${SHARE_OBJECTS_FOLDER}/${month}/${id}/${safeFilename(filename)}`;
  }

  /** The record of a new file share. */
  async buildRecord(
    id: string,
    cfg: StorageConfigRecord,
    path: string,
    file: { filename: string; size: number; mimetype: string; etag: string },
    opts: FileShareOptions,
    slug: string,
    auth: Auth,
  ): Promise<FileRecord> {
    const now = Date.now();
    const stored = storedNameOf(opts, file.filename, file.mimetype);
    return {
      id,
      slug,
      filename: stored.filename,
      size: file.size,
      mimetype: stored.mimetype,
      remark: opts.remark ?? "",
      // An end-to-end encrypted share's password is its access token: 256 bits, a fast hash.
      password_hash: opts.e2e
        ? hashAccessToken(opts.password!)
        : opts.password
        ? await hashPassword(opts.password, this.kdfIterations)
        : null,
      expires_at: shareExpiry(opts, now),
      max_views: opts.max_views ?? 0,
      use_proxy: opts.use_proxy ?? await this.settings.getDefaultUseProxy(),
      storage_config_id: cfg.id,
      storage_path: path,
      etag: file.etag,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
      created_by: creatorOf(auth),
      ...(opts.e2e ? { e2e: opts.e2e } : {}),
    };
  }
}
