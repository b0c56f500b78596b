/** Calls of the upload screen (docs/PRODUCT.md §7.3, §7.4, §7.6); each throws ApiError. */
import { api } from "../../api/client.ts";
import type { FileView } from "../../../shared/schemas/files.ts";
import type { StorageConfigView } from "../../../shared/schemas/storage_configs.ts";
import { MAX_UPLOAD_SIZE_FALLBACK_MB, RECENT_UPLOADS_SHOWN } from "../../../shared/constants.ts";

export type { FileView, StorageConfigView };

/** The max upload size as the server reports it. */
export type MaxUploadSize = { max_upload_size: number; value: number; unit: string; bytes: number };

/** The fallback of docs/PRODUCT.md §9.1 when the size cannot be read: 100 MB. */
export const FALLBACK_MAX_UPLOAD: MaxUploadSize = {
  max_upload_size: MAX_UPLOAD_SIZE_FALLBACK_MB,
  value: MAX_UPLOAD_SIZE_FALLBACK_MB,
  unit: "MB",
  bytes: MAX_UPLOAD_SIZE_FALLBACK_MB * 1024 * 1024,
};

/** Reads the max upload size (public). */
export function getMaxUploadSize(): Promise<MaxUploadSize> {
  return api<MaxUploadSize>("/system/max-upload-size");
}

/** The storage configs the caller may upload to (key users see public ones only). */
export function listUploadTargets(): Promise<StorageConfigView[]> {
  return api<StorageConfigView[]>("/s3-configs");
}

/** The caller's most recent uploads, newest first. */
export async function listRecentUploads(limit = RECENT_UPLOADS_SHOWN): Promise<FileView[]> {
  const res = await api<{ items: FileView[]; total: number }>("/files", { query: { limit } });
  return res.items;
}
