/** The local driver's errors, and how filesystem failures become AppErrors. */
import { AppError } from "../errors.ts";

/** 404 `storage_object_not_found` for a key. */
export function notFound(key: string): AppError {
  return new AppError("storage_object_not_found", 404, { key });
}

/** 404 `storage_upload_not_found` for a multipart upload id. */
export function noUpload(uploadId: string): AppError {
  return new AppError("storage_upload_not_found", 404, { uploadId: String(uploadId) });
}

/** 400 `storage_size_mismatch`: a body was longer or shorter than declared. */
export function sizeMismatch(expected: number, actual: number): AppError {
  return new AppError("storage_size_mismatch", 400, { expected, actual });
}

/** Swallows "not found" and "not a directory"; rethrows anything else. */
export function ignoreMissing(err: unknown): void {
  if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return;
  throw err;
}

/** Maps a filesystem failure on a write to an AppError (conflict, full disk) or returns it. */
export function fsError(err: unknown, key: string): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof Deno.errors.NotFound) return notFound(key);
  if (
    err instanceof Deno.errors.NotADirectory || err instanceof Deno.errors.IsADirectory ||
    err instanceof Deno.errors.AlreadyExists || (err as { code?: string })?.code === "ENOTEMPTY"
  ) {
    return new AppError("storage_conflict", 409, { key });
  }
  if ((err as { code?: string })?.code === "ENAMETOOLONG") {
    return new AppError("name_too_long", 400, { key });
  }
  if ((err as { code?: string })?.code === "ENOSPC") {
    return new AppError("storage_error", 507, { key, message: "No space left on device" });
  }
  return err;
}
