/** Formatting and error mapping shared by the file screens; pure, so safe while hydrating. */
import { scaleBytes } from "../../lib/bytes.ts";

const UNITS = ["B", "KB", "MB", "GB", "TB"];

/** A byte count for people: "320 B", "13.2 KB", "1.5 GB" (binary units, no locale). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  const { value, unit } = scaleBytes(bytes, UNITS.length);
  if (unit === 0) return `${bytes} B`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits))} ${UNITS[unit]}`;
}

/** The four error states of the file view (docs/PRODUCT.md §8.5). */
export type FileErrorKind = "unauthorized" | "forbidden" | "not_found" | "server_error";

/**
 * docs/PRODUCT.md §8.5: 401 unauthorized, 403 and 410 forbidden, 404 not found, anything else
 * server error.
 */
export function fileErrorKind(status: number): FileErrorKind {
  if (status === 401) return "unauthorized";
  if (status === 403 || status === 410) return "forbidden";
  if (status === 404) return "not_found";
  return "server_error";
}

/** The HTTP status behind a server error code of the share page data. */
export function statusOfCode(code: string): number {
  if (code === "file_not_found") return 404;
  if (code === "file_expired") return 410;
  return 500;
}

/** True when a failed preview request means its signed link is no longer accepted. */
export function isExpiredLinkStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 410;
}
