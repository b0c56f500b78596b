/** The error states of the file screens and their statuses; pure, so safe while hydrating. */

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
