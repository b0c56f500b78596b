/** AppError: the one error type services and drivers throw; the funnel in app.ts renders it. */
import type { ErrorCode } from "../shared/errors.ts";
import { formatByteSize } from "../shared/byte_size.ts";

export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 405
  | 408
  | 409
  | 410
  | 413
  | 416
  | 422
  | 429
  | 500
  | 502
  | 503
  | 507;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: ErrorStatus,
    /** Interpolation values for the message and extra data returned to the client. */
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = "AppError";
  }
}

export const badRequest = (
  code: ErrorCode = "validation_failed",
  details?: Record<string, unknown>,
) => new AppError(code, 400, details);
export const unauthorized = (code: ErrorCode = "unauthorized") => new AppError(code, 401);
export const forbidden = (code: ErrorCode = "forbidden") => new AppError(code, 403);
export const notFound = (code: ErrorCode = "not_found", details?: Record<string, unknown>) =>
  new AppError(code, 404, details);
export const conflict = (code: ErrorCode = "conflict", details?: Record<string, unknown>) =>
  new AppError(code, 409, details);
export const gone = (code: ErrorCode) => new AppError(code, 410);

/** 413 file_too_large over `max` bytes, naming the limit as people read it ("100 MB"). */
export const fileTooLarge = (max: number, size?: number) =>
  new AppError("file_too_large", 413, {
    max_bytes: max,
    limit: formatByteSize(max),
    ...(size === undefined ? {} : { file_size: size }),
  });
