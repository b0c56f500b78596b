/**
 * File shares: uploads (streamed form, raw body, presign + commit) and shares of existing
 * objects; management is in file_management.ts. Every upload writes the object first and the
 * record last, so a failed upload leaves neither; if the record cannot be written, the object
 * is deleted again.
 */
import { ulid } from "../lib/ulid.ts";
import type { FileRecord, FileRepo, PendingUpload } from "./file_repo.ts";
import type { StorageConfigRecord } from "../kv/storage_config_repo.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { SettingsService } from "../services/settings.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import { badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { limitStream } from "../lib/limit_stream.ts";
import { contentTypeFor } from "../../shared/mime.ts";
import type { Commit, FileShareOptions, FileView, Presign } from "../../shared/schemas/files.ts";
import { FileAdmission, storedNameOf } from "./file_admission.ts";
import { FileManagement } from "./file_management.ts";

const PRESIGN_TTL_S = 3600;

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

/** File shares: uploads plus everything FileManagement does. */
export class FileService extends FileManagement {
  private admission: FileAdmission;

  constructor(
    repo: FileRepo,
    storage: StorageConfigService,
    settings: SettingsService,
    kdfIterations: number,
  ) {
    super(repo, storage, kdfIterations);
    this.admission = new FileAdmission(repo, storage, settings, kdfIterations);
  }

  /** Streams an upload to storage and records the share. Throws 400/403/409/413. */
  async upload(input: UploadInput, opts: FileShareOptions, auth: Auth): Promise<FileView> {
    const cfg = await this.storage.resolveForUpload(opts.s3_config_id, auth);
    const max = await this.admission.checkSize(input.size);
    await this.admission.checkQuota(cfg, input.size ?? 0);
    if (opts.slug) await this.admission.pickSlug(opts.slug); // fail early; picked again at the end
    const id = ulid();
    let filename = input.filename.trim() || "file";
    let mimetype = contentTypeFor(filename, input.mimetype);
    // Known before the bytes: an encrypted file's storage path must not carry its name either.
    ({ filename, mimetype } = storedNameOf(opts, filename, mimetype));
    const path = this.admission.storagePath(id, filename);
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
      await this.admission.checkQuota(cfg, written.size);
      const slug = await this.admission.pickSlug(opts.slug || undefined);
      const rec = await this.admission.buildRecord(
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
    await this.admission.checkSize(input.size);
    await this.admission.checkQuota(cfg, input.size);
    if (input.slug) await this.admission.pickSlug(input.slug);
    const id = ulid();
    const stored = storedNameOf(
      input,
      input.filename,
      contentTypeFor(input.filename, input.mimetype),
    );
    const contentType = stored.mimetype;
    const path = this.admission.storagePath(id, stored.filename);
    const driver = await this.storage.driverFor(cfg);
    const pending: PendingUpload = {
      id,
      storage_config_id: cfg.id,
      storage_path: path,
      filename: stored.filename,
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
    await driver.checkBucket?.();
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
    await this.admission.checkQuota(cfg, head.size);
    const slug = await this.admission.pickSlug(input.slug || undefined);
    const rec = await this.admission.buildRecord(
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
    // A mount file is plaintext the server already holds: it cannot become an encrypted share.
    if (opts.e2e) throw badRequest("validation_failed", { fields: { e2e: "not for mount files" } });
    const driver = await this.storage.driverFor(cfg);
    const head = await driver.head(key);
    if (!head) throw notFound("file_not_found");
    const filename = key.split("/").pop()!;
    const slug = await this.admission.pickSlug(opts.slug || undefined);
    const rec: FileRecord = {
      ...await this.admission.buildRecord(
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
}
