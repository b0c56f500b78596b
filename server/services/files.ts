/**
 * File shares: uploads (streamed form, raw body, presign + commit), management, and expiry.
 * Every upload writes the object first and the record last, so a failed upload leaves neither;
 * if the record cannot be written, the object is deleted again.
 */
import { ulid } from "ulid";
import type { FileRecord, FileRepo, PendingUpload } from "../kv/file_repo.ts";
import type { StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { StorageConfigService } from "./storage_configs.ts";
import type { SettingsService } from "./settings.ts";
import { type Auth, creatorOf } from "./auth.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { hashPassword, randomBase62 } from "./crypto.ts";
import { limitStream } from "./limit_stream.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import { SHARE_OBJECTS_FOLDER } from "../storage/share_area.ts";
import { RANDOM_SLUG_LENGTH } from "../../shared/constants.ts";
import { isReservedSlug } from "../../shared/slug.ts";
import type {
  Commit,
  FileShareOptions,
  FileUpdate,
  FileView,
  Presign,
} from "../../shared/schemas/files.ts";

/** Re-exported for the routes and tasks that import it from here. */
export { limitStream };

const PRESIGN_TTL_S = 3600;
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

export type UploadInput = {
  body: ReadableStream<Uint8Array>;
  filename: string;
  size?: number;
  mimetype?: string | null;
  /**
   * The rest of a form whose file streamed straight through: resolves, once the body has been
   * read, with the options and file fields that came after it. The share is recorded with
   * these, never with the partial options.
   */
  late?: () => Promise<LateUploadFields>;
};

/** What a form may still say after its file (see `UploadInput.late`). */
export type LateUploadFields = {
  opts: FileShareOptions;
  filename?: string;
  mimetype?: string | null;
  size?: number;
};

export class FileService {
  constructor(
    private repo: FileRepo,
    private storage: StorageConfigService,
    private settings: SettingsService,
    private kdfIterations: number,
  ) {}

  /** The view a creator or admin sees. */
  async toView(rec: FileRecord): Promise<FileView> {
    const { password_hash, etag: _etag, ...rest } = rec;
    return {
      ...rest,
      has_password: password_hash !== null,
      views: await this.repo.readViews(rec.id),
      url: `/file/${rec.slug}`,
    };
  }

  private async pickSlug(requested: string | undefined): Promise<string> {
    if (requested) {
      if (isReservedSlug(requested)) {
        throw badRequest("slug_reserved");
      }
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

  private async checkQuota(cfg: StorageConfigRecord, size: number): Promise<void> {
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

  private async checkSize(size: number | undefined): Promise<number> {
    const max = await this.settings.getMaxUploadBytes();
    if (size !== undefined && size > max) {
      throw new AppError("file_too_large", 413, { max_bytes: max, file_size: size });
    }
    return max;
  }

  private storagePath(id: string, filename: string): string {
    const d = new Date();
    const month = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    return `${SHARE_OBJECTS_FOLDER}/${month}/${id}/${safeFilename(filename)}`;
  }

  private async buildRecord(
    id: string,
    cfg: StorageConfigRecord,
    path: string,
    file: { filename: string; size: number; mimetype: string; etag: string },
    opts: FileShareOptions,
    slug: string,
    auth: Auth,
  ): Promise<FileRecord> {
    const now = Date.now();
    return {
      id,
      slug,
      filename: file.filename,
      size: file.size,
      mimetype: file.mimetype,
      remark: opts.remark ?? "",
      password_hash: opts.password ? await hashPassword(opts.password, this.kdfIterations) : null,
      expires_at: shareExpiry(opts, now),
      max_views: opts.max_views ?? 0,
      use_proxy: opts.use_proxy ?? await this.settings.getDefaultUseProxy(),
      storage_config_id: cfg.id,
      storage_path: path,
      etag: file.etag,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
      created_by: creatorOf(auth),
    };
  }

  /** Streams an upload to storage and records the share. Throws 400/403/409/413. */
  async upload(input: UploadInput, opts: FileShareOptions, auth: Auth): Promise<FileView> {
    const cfg = await this.storage.resolveForUpload(opts.s3_config_id, auth);
    const max = await this.checkSize(input.size);
    await this.checkQuota(cfg, input.size ?? 0);
    if (opts.slug) await this.pickSlug(opts.slug); // fail early; picked again at the end
    const id = ulid();
    let filename = input.filename.trim() || "file";
    let mimetype = contentTypeFor(filename, input.mimetype);
    const path = this.storagePath(id, filename);
    const driver = await this.storage.driverFor(cfg);
    const limited = limitStream(input.body, max);
    let written: { etag: string; size: number };
    try {
      written = await driver.put(path, limited.stream, { contentType: mimetype, size: input.size });
    } catch (err) {
      await driver.delete(path).catch(() => {});
      throw err;
    }
    try {
      let size = input.size;
      if (input.late) {
        const late = await input.late();
        if ((late.opts.s3_config_id || undefined) !== (opts.s3_config_id || undefined)) {
          throw badRequest("upload_form_invalid", { reason: "s3_config_id changed" });
        }
        opts = late.opts;
        filename = late.filename?.trim() || filename;
        mimetype = contentTypeFor(filename, late.mimetype ?? input.mimetype);
        size = late.size ?? size;
      }
      if (size !== undefined && written.size !== size) {
        throw badRequest("upload_incomplete", { expected: size, received: written.size });
      }
      await this.checkQuota(cfg, written.size);
      const slug = await this.pickSlug(opts.slug || undefined);
      const rec = await this.buildRecord(
        id,
        cfg,
        path,
        {
          filename,
          size: written.size,
          mimetype,
          etag: written.etag,
        },
        opts,
        slug,
        auth,
      );
      if (!await this.repo.create(rec)) throw conflict("slug_taken");
      return await this.toView(rec);
    } catch (err) {
      await driver.delete(path).catch(() => {});
      throw err;
    }
  }

  /**
   * Checks an upload announced by size (config, size limit, quota, slug), reserves a storage
   * path and records it as pending; the bytes then go straight to storage.
   */
  async reserve(
    input: Presign,
    auth: Auth,
    uploadId?: (path: string, type: string) => Promise<string>,
  ) {
    const cfg = await this.storage.resolveForUpload(input.s3_config_id, auth);
    await this.checkSize(input.size);
    await this.checkQuota(cfg, input.size);
    if (input.slug) await this.pickSlug(input.slug);
    const id = ulid();
    const contentType = contentTypeFor(input.filename, input.mimetype);
    const path = this.storagePath(id, input.filename);
    const driver = await this.storage.driverFor(cfg);
    const pending: PendingUpload = {
      id,
      storage_config_id: cfg.id,
      storage_path: path,
      filename: input.filename,
      size: input.size,
      mimetype: contentType,
      created_by: creatorOf(auth),
      created_at: new Date().toISOString(),
      upload_id: uploadId ? await uploadId(path, contentType) : undefined,
    };
    await this.repo.putPending(pending);
    return { cfg, driver, pending };
  }

  /** The config an upload goes to, checked for the caller. */
  configForUpload(id: string | undefined, auth: Auth): Promise<StorageConfigRecord> {
    return this.storage.resolveForUpload(id, auth);
  }

  /** The live driver of a config. */
  driverOf(cfg: StorageConfigRecord) {
    return this.storage.driverFor(cfg);
  }

  /** Forgets a pending upload (after an abort). */
  async dropPending(entry: Deno.KvEntry<PendingUpload>): Promise<void> {
    await this.repo.deletePending(entry.key);
  }

  /** The pending upload of the caller; 404 when missing or expired, 403 for another caller. */
  async pendingOf(fileId: string, auth: Auth) {
    const pending = await this.repo.getPending(fileId);
    if (!pending.value) throw notFound("upload_not_found");
    if (pending.value.created_by !== creatorOf(auth)) throw forbidden("not_creator");
    const cfg = await this.storage.getRecord(pending.value.storage_config_id);
    return {
      entry: pending as Deno.KvEntry<PendingUpload>,
      cfg,
      driver: await this.storage.driverFor(cfg),
    };
  }

  /** Reserves a storage path and returns a URL the browser PUTs the bytes to. */
  async presign(input: Presign, auth: Auth) {
    const { cfg, driver, pending } = await this.reserve(input, auth);
    const uploadUrl = await driver.presignPut(pending.storage_path, {
      expiresIn: PRESIGN_TTL_S,
      contentType: pending.mimetype,
      size: pending.size,
    });
    return {
      upload_url: uploadUrl,
      file_id: pending.id,
      storage_path: pending.storage_path,
      s3_url: uploadUrl.split("?")[0],
      slug: input.slug || null,
      provider_type: cfg.provider_type,
      contentType: pending.mimetype,
    };
  }

  /** Checks the uploaded object exists with the announced size, then records the share. */
  async commit(input: Commit, auth: Auth): Promise<FileView> {
    const { entry: pending, cfg, driver } = await this.pendingOf(input.file_id, auth);
    const p = pending.value;
    const head = await driver.head(p.storage_path);
    if (!head) throw badRequest("upload_incomplete", { expected: p.size, received: 0 });
    if (head.size !== p.size) {
      await driver.delete(p.storage_path).catch(() => {});
      throw badRequest("upload_incomplete", { expected: p.size, received: head.size });
    }
    await this.checkQuota(cfg, head.size);
    const slug = await this.pickSlug(input.slug || undefined);
    const rec = await this.buildRecord(
      p.id,
      cfg,
      p.storage_path,
      {
        filename: p.filename,
        size: head.size,
        mimetype: p.mimetype,
        etag: head.etag ?? input.etag ?? "",
      },
      input,
      slug,
      auth,
    );
    if (!await this.repo.commitPending(rec, pending)) {
      throw conflict("slug_taken");
    }
    return await this.toView(rec);
  }

  /**
   * Shares an object that already exists in storage (a mount file). The share does not own the
   * object: deleting the share leaves the file where it is.
   */
  async shareObject(
    cfg: StorageConfigRecord,
    key: string,
    opts: FileShareOptions,
    auth: Auth,
  ): Promise<FileView> {
    const driver = await this.storage.driverFor(cfg);
    const head = await driver.head(key);
    if (!head) throw notFound("file_not_found");
    const filename = key.split("/").pop()!;
    const slug = await this.pickSlug(opts.slug || undefined);
    const rec: FileRecord = {
      ...await this.buildRecord(
        ulid(),
        cfg,
        key,
        {
          filename,
          size: head.size,
          mimetype: contentTypeFor(filename, head.contentType),
          etag: head.etag,
        },
        opts,
        slug,
        auth,
      ),
      owns_object: false,
    };
    if (!await this.repo.create(rec)) throw conflict("slug_taken");
    return await this.toView(rec);
  }

  /** Lists files: all for the admin, the key's own for key users. */
  async list(
    auth: Auth,
    q: { limit: number; offset: number; search?: string; s3_config_id?: string },
  ) {
    const all = await this.repo.list(auth.type === "admin" ? null : creatorOf(auth));
    const needle = q.search?.toLowerCase();
    const filtered = all.filter((f) =>
      (!needle || f.filename.toLowerCase().includes(needle) ||
        f.slug.toLowerCase().includes(needle) ||
        f.remark.toLowerCase().includes(needle)) &&
      (!q.s3_config_id || f.storage_config_id === q.s3_config_id)
    );
    const page = filtered.slice(q.offset, q.offset + q.limit);
    return {
      items: await Promise.all(page.map((f) => this.toView(f))),
      total: filtered.length,
      limit: q.limit,
      offset: q.offset,
    };
  }

  /** One file for its creator or the admin. */
  async get(id: string, auth: Auth): Promise<FileView> {
    const { value } = await this.repo.get(id);
    if (!value) throw notFound("file_not_found");
    assertCanManage(auth, value.created_by);
    return await this.toView(value);
  }

  /** Edits remark, slug, expiry, max views (resetting the counter), password or proxy. */
  async update(id: string, input: FileUpdate, auth: Auth): Promise<FileView> {
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("file_not_found");
    const prev = entry.value;
    assertCanManage(auth, prev.created_by);
    if (
      input.slug && input.slug !== prev.slug &&
      isReservedSlug(input.slug)
    ) {
      throw badRequest("slug_reserved");
    }
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) {
      throw badRequest("expires_at_invalid");
    }
    const next: FileRecord = {
      ...prev,
      remark: input.remark ?? prev.remark,
      slug: input.slug ?? prev.slug,
      expires_at: input.expires_at === undefined
        ? prev.expires_at
        : input.expires_at && new Date(input.expires_at).toISOString(),
      max_views: input.max_views ?? prev.max_views,
      password_hash: input.password === undefined
        ? prev.password_hash
        : input.password
        ? await hashPassword(input.password, this.kdfIterations)
        : null,
      use_proxy: input.use_proxy ?? prev.use_proxy,
      updated_at: new Date().toISOString(),
    };
    const res = await this.repo.update(
      prev,
      next,
      entry.versionstamp,
      input.max_views !== undefined,
    );
    if (res === "slug") throw conflict("slug_taken");
    if (res === "conflict") throw conflict();
    return await this.toView(next);
  }

  /** Deletes files the caller may manage; with mode "both" the stored objects go too. */
  async batchDelete(ids: string[], mode: "both" | "record_only", auth: Auth) {
    let deleted = 0;
    const failed: { id: string; error: string }[] = [];
    for (const id of new Set(ids)) {
      const { value } = await this.repo.get(id);
      if (!value) {
        failed.push({ id, error: "file_not_found" });
        continue;
      }
      try {
        assertCanManage(auth, value.created_by);
      } catch {
        failed.push({ id, error: "not_creator" });
        continue;
      }
      await this.remove(value, mode === "both");
      deleted++;
    }
    return { deleted, failed };
  }

  private async remove(rec: FileRecord, withObject: boolean): Promise<void> {
    await this.repo.delete(rec);
    // A share of a mount file points at the user's own object: it is never deleted with the share.
    if (!withObject || rec.owns_object === false) return;
    try {
      const cfg = await this.storage.getRecord(rec.storage_config_id);
      await (await this.storage.driverFor(cfg)).delete(rec.storage_path);
    } catch (err) {
      console.error(`Could not delete stored object of file ${rec.id}:`, err);
    }
  }

  /** Deletes expired files and their objects; returns how many. */
  async deleteExpired(nowMs: number): Promise<number> {
    let n = 0;
    for (const id of await this.repo.listExpiredIds(nowMs)) {
      const { value } = await this.repo.get(id);
      if (value) {
        await this.remove(value, true);
        n++;
      }
    }
    return n;
  }
}
