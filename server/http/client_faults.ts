/**
 * Low-level errors that can only come from what a client sent, recognised in one place so the
 * error funnel answers them with a clear 4xx instead of 500 `internal`: a malformed
 * percent-encoding anywhere (`URIError`), a value too large to be a KV key, and a name longer
 * than the filesystem allows. Code paths still validate first; this is the net under them.
 */
import { AppError } from "../errors.ts";

/** The AppError a client-caused runtime error stands for, or null for a real server fault. */
export function clientFault(err: unknown): AppError | null {
  if (err instanceof URIError) return new AppError("url_malformed", 400);
  if (err instanceof TypeError && /^Key too large for (read|write)/.test(err.message)) {
    return new AppError("value_too_long", 400);
  }
  if ((err as { code?: unknown })?.code === "ENAMETOOLONG") {
    return new AppError("name_too_long", 400);
  }
  return null;
}
