/**
 * Multipart uploads of file shares: the browser PUTs parts (5 MiB, docs/PRODUCT.md §9.1) straight
 * to storage through presigned part URLs, and can resume after a reload: list-parts tells what is
 * there, refresh-urls signs the missing parts again. Complete assembles and records the share.
 */
import type { FileService } from "./files.ts";
import type { Auth } from "../services/auth.ts";
import type { StorageDriver } from "../storage/driver.ts";
import { badRequest } from "../errors.ts";
import { MULTIPART_PART_SIZE } from "../../shared/constants.ts";
import type { Commit, FileView, Presign } from "../../shared/schemas/files.ts";

const PART_URL_TTL_S = 3600;
const MAX_PARTS = 10_000;

/** The part size for a file: 5 MiB, or larger when 10,000 parts would not hold it. */
export function partSizeFor(size: number): number {
  return Math.max(MULTIPART_PART_SIZE, Math.ceil(size / MAX_PARTS));
}

async function signParts(driver: StorageDriver, path: string, uploadId: string, numbers: number[]) {
  return await Promise.all(numbers.map(async (partNumber) => ({
    partNumber,
    url: await driver.presignPart(path, uploadId, partNumber, { expiresIn: PART_URL_TTL_S }),
  })));
}

export class MultipartUploadService {
  constructor(private files: FileService) {}

  /** Starts an upload: reserves the path, creates the multipart upload, signs every part. */
  async init(input: Presign, auth: Auth) {
    const cfg = await this.files.configForUpload(input.s3_config_id, auth);
    const driver = await this.files.driverOf(cfg);
    const { pending } = await this.files.reserve(
      input,
      auth,
      (path, type) => driver.createMultipart(path, { contentType: type }),
    );
    const partSize = partSizeFor(input.size);
    const total = Math.max(1, Math.ceil(input.size / partSize));
    const numbers = Array.from({ length: total }, (_, i) => i + 1);
    return {
      file_id: pending.id,
      upload_id: pending.upload_id!,
      storage_path: pending.storage_path,
      part_size: partSize,
      total_parts: total,
      contentType: pending.mimetype,
      provider_type: cfg.provider_type,
      presigned_urls: await signParts(driver, pending.storage_path, pending.upload_id!, numbers),
    };
  }

  private async pending(fileId: string, auth: Auth) {
    const found = await this.files.pendingOf(fileId, auth);
    if (!found.entry.value.upload_id) throw badRequest("upload_not_found");
    return found;
  }

  /** The parts stored so far, for resuming after a reload. */
  async listParts(fileId: string, auth: Auth) {
    const { entry, driver } = await this.pending(fileId, auth);
    const p = entry.value;
    const parts = await driver.listParts(p.storage_path, p.upload_id!);
    const partSize = partSizeFor(p.size);
    return {
      file_id: p.id,
      upload_id: p.upload_id!,
      part_size: partSize,
      total_parts: Math.max(1, Math.ceil(p.size / partSize)),
      parts,
    };
  }

  /** Fresh presigned URLs for the given part numbers (the missing ones, after a reload). */
  async refreshUrls(fileId: string, partNumbers: number[], auth: Auth) {
    const { entry, driver } = await this.pending(fileId, auth);
    const p = entry.value;
    const total = Math.max(1, Math.ceil(p.size / partSizeFor(p.size)));
    if (partNumbers.some((n) => n < 1 || n > total)) {
      throw badRequest("validation_failed", { fields: { part_numbers: `1..${total}` } });
    }
    return { presigned_urls: await signParts(driver, p.storage_path, p.upload_id!, partNumbers) };
  }

  /** Assembles the parts, then records the share like a presigned commit. */
  async complete(
    input: Commit & { parts: { partNumber: number; ETag: string }[] },
    auth: Auth,
  ): Promise<FileView> {
    const { entry, driver } = await this.pending(input.file_id, auth);
    const p = entry.value;
    const parts = [...input.parts].sort((a, b) => a.partNumber - b.partNumber)
      .map((x) => ({ partNumber: x.partNumber, etag: x.ETag }));
    await driver.completeMultipart(p.storage_path, p.upload_id!, parts);
    return await this.files.commit(input, auth);
  }

  /** Cancels any pending upload: aborts a multipart upload, or deletes a presigned object. */
  async cancel(fileId: string, auth: Auth): Promise<void> {
    const { entry, driver } = await this.files.pendingOf(fileId, auth);
    const p = entry.value;
    if (p.upload_id) await driver.abortMultipart(p.storage_path, p.upload_id).catch(() => {});
    else await driver.delete(p.storage_path).catch(() => {});
    await this.files.dropPending(entry);
  }

  /** Discards the upload and its parts. */
  async abort(fileId: string, auth: Auth): Promise<void> {
    const { entry, driver } = await this.pending(fileId, auth);
    const p = entry.value;
    await driver.abortMultipart(p.storage_path, p.upload_id!);
    await this.files.dropPending(entry);
  }
}
