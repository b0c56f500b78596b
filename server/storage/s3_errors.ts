/** How S3 failures become AppErrors: one mapping from SDK errors, and the driver's own errors. */
import { AppError } from "../errors.ts";

/**
 * Turns an SDK failure into an AppError: 404, 403, 400 for bad parts or ranges, 502
 * storage_bucket_not_found for a missing bucket, else 502.
 */
export function mapS3Error(err: unknown, key: string, signal?: AbortSignal): unknown {
  if (err instanceof AppError) return err;
  if (signal?.aborted) return signal.reason ?? err;
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = e?.name ?? "Error";
  const status = e?.$metadata?.httpStatusCode;
  const details = { key, provider_code: name, message: e?.message ?? String(err), status };
  if (name === "NoSuchUpload") return new AppError("storage_upload_not_found", 404, details);
  if (name === "NoSuchBucket") {
    const bucket = (err as { BucketName?: string }).BucketName ?? "";
    return new AppError("storage_bucket_not_found", 502, { ...details, bucket });
  }
  if (name === "NoSuchKey" || name === "NotFound" || (status === 404 && name !== "NoSuchBucket")) {
    return new AppError("storage_object_not_found", 404, details);
  }
  if (name === "AccessDenied" || name === "Forbidden" || status === 403) {
    return new AppError("storage_access_denied", 403, details);
  }
  if (name === "InvalidRange" || status === 416) {
    return new AppError("storage_range_invalid", 400, details);
  }
  if (["InvalidPart", "InvalidPartOrder", "EntityTooSmall"].includes(name)) {
    return new AppError("storage_multipart_invalid", 400, details);
  }
  return new AppError("storage_error", 502, details);
}

/** Awaits an SDK call and rethrows its failure through `mapS3Error`. */
export async function callS3<T>(call: Promise<T>, key: string, signal?: AbortSignal): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw mapS3Error(err, key, signal);
  }
}

/** 404 `storage_object_not_found` for a key. */
export function notFound(key: string): AppError {
  return new AppError("storage_object_not_found", 404, { key });
}

/** 400 `storage_size_mismatch`: a body was longer or shorter than declared. */
export function sizeMismatch(expected: number, actual: number): AppError {
  return new AppError("storage_size_mismatch", 400, { expected, actual });
}
