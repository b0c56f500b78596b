/**
 * Uploads into mounts that go straight to storage, so big files never pass through Cubby:
 * - multipart: the browser PUTs 5 MiB parts (docs/PRODUCT.md §9.1) to presigned part URLs, and can
 *   resume after a reload through list-uploads, list-parts and refresh-urls, then completes;
 * - presign: one presigned PUT, then a commit that checks what arrived.
 *
 * Every path goes through MountService.resolve, so base paths apply. Who started which
 * multipart upload is kept in KV for a day: only its creator, or the admin (docs/PRODUCT.md §6.3
 * creator rule), may inspect, complete or abort it.
 */
import type { MountService, Resolved } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { FsService } from "./fs.ts";
import { checkName } from "./fs_entry.ts";
import { placeUpload, type UploadConflict } from "./fs_conflicts.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import type { FsUploadRecord, FsUploadRepo } from "./fs_upload_repo.ts";
import { partSizeFor } from "../shares/multipart_uploads.ts";
import { AppError, badRequest, forbidden, notFound } from "../errors.ts";
import { bareEtag } from "../storage/driver_wire.ts";
import { type StorageDriver } from "../storage/driver.ts";
import { contentTypeFor } from "../../shared/mime.ts";

/** Lifetime of presigned part and PUT URLs. */
export const FS_UPLOAD_URL_TTL_S = 3600;

/** One part as the browser reports it after its PUT. */
export type UploadedPart = { partNumber: number; ETag: string };

function totalParts(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

export class FsUploadService {
  constructor(
    private fs: FsService,
    private mounts: MountService,
    private storage: StorageConfigService,
    private repo: FsUploadRepo,
  ) {}

  private async driverOf(r: Resolved) {
    const cfg = await this.storage.getRecord(r.mount.storage_config_id);
    return { cfg, driver: await this.storage.mountDriverFor(cfg) };
  }

  /** Resolves a target file path; 400 for a folder-less or bad name, 409 on a folder. */
  private async target(path: string, auth: Auth, onConflict: UploadConflict = "overwrite") {
    const first = await this.mounts.resolve(path, auth);
    if (!first.key) throw badRequest("storage_path_invalid");
    const name = checkName(first.key.slice(first.key.lastIndexOf("/") + 1));
    const placed = await placeUpload(
      first.path.slice(0, first.path.length - name.length - 1) || "/",
      name,
      onConflict,
      (p) => this.fs.stat(p, auth),
    );
    const r = placed === first.path ? first : await this.mounts.resolve(placed, auth);
    return { r, ...await this.driverOf(r) };
  }

  /**
   * A browser's upload straight to the bucket cannot be cut off at the limit: what arrived
   * over the max upload size is deleted at its commit, with 413 file_too_large.
   */
  private async refuseOversize(driver: StorageDriver, r: Resolved, size: number): Promise<void> {
    try {
      await this.fs.checkUploadSize(size);
    } catch (err) {
      await driver.delete(r.key);
      await this.fs.invalidateListings(r);
      throw err;
    }
  }

  /** The one place a finished upload is announced: the directory cache and the search index. */
  private async afterWrite(r: Resolved): Promise<void> {
    await this.fs.invalidateListings(r);
    await this.fs.indexWritten(r);
  }

  private async signParts(driver: StorageDriver, key: string, uploadId: string, ns: number[]) {
    return await Promise.all(ns.map(async (partNumber) => ({
      partNumber,
      url: await driver.presignPart(key, uploadId, partNumber, { expiresIn: FS_UPLOAD_URL_TTL_S }),
    })));
  }

  /** Starts a multipart upload of `path` and signs every part. */
  async init(
    input: { path: string; size: number; contentType?: string; on_conflict?: UploadConflict },
    auth: Auth,
  ) {
    const { r, cfg, driver } = await this.target(input.path, auth, input.on_conflict);
    await this.fs.checkUploadSize(input.size);
    const contentType = contentTypeFor(r.key, input.contentType);
    const partSize = partSizeFor(input.size);
    const total = totalParts(input.size, partSize);
    const uploadId = await driver.createMultipart(r.key, { contentType });
    const rec: FsUploadRecord = {
      upload_id: uploadId,
      mount_id: r.mount.id,
      storage_config_id: r.mount.storage_config_id,
      key: r.key,
      path: r.path,
      size: input.size,
      part_size: partSize,
      content_type: contentType,
      created_by: creatorOf(auth),
      created_at: new Date().toISOString(),
    };
    await this.repo.put(rec);
    const numbers = Array.from({ length: total }, (_, i) => i + 1);
    return {
      upload_id: uploadId,
      path: r.path,
      storage_path: r.key,
      mount_id: r.mount.id,
      provider_type: cfg.provider_type,
      contentType,
      part_size: partSize,
      total_parts: total,
      expires_in: FS_UPLOAD_URL_TTL_S,
      presigned_urls: await this.signParts(driver, r.key, uploadId, numbers),
    };
  }

  /**
   * An upload of `path` the caller may act on. Throws 404 upload_not_found when there is no
   * record of it for that path (the admin may still act on uploads started outside Cubby),
   * 403 not_creator for another key's upload.
   */
  private async owned(path: string, uploadId: string, auth: Auth) {
    const r = await this.mounts.resolve(path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    const rec = await this.repo.get(uploadId);
    if (rec && (rec.storage_config_id !== r.mount.storage_config_id || rec.key !== r.key)) {
      throw notFound("upload_not_found");
    }
    if (!rec && auth.type !== "admin") throw notFound("upload_not_found");
    if (rec && auth.type !== "admin" && rec.created_by !== creatorOf(auth)) {
      throw forbidden("not_creator");
    }
    return { r, rec, ...await this.driverOf(r) };
  }

  /** The parts stored so far, for resuming after a reload. */
  async listParts(path: string, uploadId: string, auth: Auth) {
    const { r, rec, driver } = await this.owned(path, uploadId, auth);
    const parts = await driver.listParts(r.key, uploadId);
    const partSize = rec?.part_size ?? parts[0]?.size ?? partSizeFor(0);
    return {
      upload_id: uploadId,
      path: r.path,
      part_size: partSize,
      total_parts: rec ? totalParts(rec.size, rec.part_size) : null,
      parts,
    };
  }

  /** Fresh presigned URLs for the given part numbers (the missing ones, after a reload). */
  async refreshUrls(path: string, uploadId: string, partNumbers: number[], auth: Auth) {
    const { r, rec, driver } = await this.owned(path, uploadId, auth);
    const total = rec ? totalParts(rec.size, rec.part_size) : 10_000;
    if (partNumbers.some((n) => n < 1 || n > total)) {
      throw badRequest("validation_failed", { fields: { part_numbers: `1..${total}` } });
    }
    return {
      upload_id: uploadId,
      expires_in: FS_UPLOAD_URL_TTL_S,
      presigned_urls: await this.signParts(driver, r.key, uploadId, partNumbers),
    };
  }

  /** Assembles the parts into the file and returns its entry. */
  async complete(path: string, uploadId: string, parts: UploadedPart[], auth: Auth) {
    const { r, driver } = await this.owned(path, uploadId, auth);
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber)
      .map((p) => ({ partNumber: p.partNumber, etag: p.ETag }));
    const done = await driver.completeMultipart(r.key, uploadId, sorted);
    await this.refuseOversize(driver, r, done.size);
    await this.afterWrite(r);
    await this.repo.delete(uploadId);
    return await this.fs.get(r.path, auth);
  }

  /** Discards an upload and its parts. */
  async abort(path: string, uploadId: string, auth: Auth): Promise<void> {
    const { r, driver } = await this.owned(path, uploadId, auth);
    await driver.abortMultipart(r.key, uploadId);
    await this.repo.delete(uploadId);
  }

  /**
   * Unfinished uploads below a folder: the caller's own (the admin sees all, including those
   * started outside Cubby), with what is known to resume them.
   */
  async listUploads(folder: string, auth: Auth) {
    const r = await this.mounts.resolve(folder, auth);
    const { driver } = await this.driverOf(r);
    const uploads = await driver.listMultipartUploads(r.key ? `${r.key}/` : "");
    const recs = await this.repo.getMany(uploads.map((u) => u.uploadId));
    const me = creatorOf(auth);
    return {
      path: r.path,
      uploads: uploads.flatMap((u, i) => {
        const rec = recs[i]?.storage_config_id === r.mount.storage_config_id ? recs[i] : null;
        if (auth.type !== "admin" && rec?.created_by !== me) return [];
        return [{
          upload_id: u.uploadId,
          path: `${r.mount.mount_path}/${u.key}`,
          initiated: u.initiated.toISOString(),
          size: rec?.size ?? null,
          part_size: rec?.part_size ?? null,
          total_parts: rec ? totalParts(rec.size, rec.part_size) : null,
          created_by: rec?.created_by ?? null,
        }];
      }),
    };
  }

  /** A presigned URL for one PUT of the file at `path`; confirm it with `commit`. */
  async presign(
    input: { path: string; contentType?: string; size?: number; on_conflict?: UploadConflict },
    auth: Auth,
  ) {
    const { r, cfg, driver } = await this.target(input.path, auth, input.on_conflict);
    await this.fs.checkUploadSize(input.size);
    const contentType = contentTypeFor(r.key, input.contentType);
    await driver.checkBucket?.();
    const url = await driver.presignPut(r.key, {
      expiresIn: FS_UPLOAD_URL_TTL_S,
      contentType,
      size: input.size,
    });
    return {
      upload_url: url,
      path: r.path,
      storage_path: r.key,
      mount_id: r.mount.id,
      provider_type: cfg.provider_type,
      contentType,
      expires_in: FS_UPLOAD_URL_TTL_S,
    };
  }

  /**
   * Confirms a presigned PUT: the file must exist, with `size` and `etag` when given. Throws
   * 400 upload_incomplete (missing or wrong size), 409 upload_etag_mismatch.
   */
  async commit(
    input: { path: string; size?: number; etag?: string; mountId?: string },
    auth: Auth,
  ) {
    const r = await this.mounts.resolve(input.path, auth);
    if (!r.key) throw badRequest("storage_path_invalid");
    if (input.mountId && input.mountId !== r.mount.id) throw badRequest("storage_path_invalid");
    const { driver } = await this.driverOf(r);
    const head = await driver.head(r.key);
    await this.fs.invalidateListings(r);
    if (!head) {
      throw badRequest("upload_incomplete", { expected: input.size ?? null, received: 0 });
    }
    if (input.size !== undefined && head.size !== input.size) {
      throw badRequest("upload_incomplete", { expected: input.size, received: head.size });
    }
    await this.refuseOversize(driver, r, head.size);
    if (input.etag && bareEtag(input.etag) !== bareEtag(head.etag)) {
      throw new AppError("upload_etag_mismatch", 409, { etag: head.etag });
    }
    await this.afterWrite(r);
    return await this.fs.get(r.path, auth);
  }
}
