/**
 * Permission bits (docs/PRODUCT.md §6.2) and the one function every access check goes through.
 * The server and the client share this module so that both agree on what a key may do.
 */

export const Permission = {
  TEXT: 1,
  FILE_SHARE: 2,
  MOUNT_VIEW: 256,
  MOUNT_UPLOAD: 512,
  MOUNT_COPY: 1024,
  MOUNT_RENAME: 2048,
  MOUNT_DELETE: 4096,
  WEBDAV_READ: 65536,
  WEBDAV_MANAGE: 131072,
} as const;

export type PermissionName = keyof typeof Permission;

/** The server's permission object, as in docs/PRODUCT.md §6.2 and the API key create payload. */
export type PermissionObject = {
  text: boolean;
  file: boolean;
  mount_view: boolean;
  mount_upload: boolean;
  mount_copy: boolean;
  mount_rename: boolean;
  mount_delete: boolean;
  webdav_read: boolean;
  webdav_manage: boolean;
};

const OBJECT_BITS: Record<keyof PermissionObject, number> = {
  text: Permission.TEXT,
  file: Permission.FILE_SHARE,
  mount_view: Permission.MOUNT_VIEW,
  mount_upload: Permission.MOUNT_UPLOAD,
  mount_copy: Permission.MOUNT_COPY,
  mount_rename: Permission.MOUNT_RENAME,
  mount_delete: Permission.MOUNT_DELETE,
  webdav_read: Permission.WEBDAV_READ,
  webdav_manage: Permission.WEBDAV_MANAGE,
};

export const PERMISSION_KEYS = Object.keys(OBJECT_BITS) as (keyof PermissionObject)[];

export const MOUNT_BITS = Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD | Permission.MOUNT_COPY |
  Permission.MOUNT_RENAME | Permission.MOUNT_DELETE;

export const ALL_PERMISSIONS = Object.values(Permission).reduce((a, b) => a | b, 0);

/** Converts a permission object into the bitmask; missing keys count as false. */
export function permissionsToMask(perms: Partial<PermissionObject>): number {
  let mask = 0;
  for (const key of PERMISSION_KEYS) if (perms[key]) mask |= OBJECT_BITS[key];
  return mask;
}

/** Converts a bitmask into the permission object. */
export function maskToPermissions(mask: number): PermissionObject {
  const out = {} as PermissionObject;
  for (const key of PERMISSION_KEYS) out[key] = (mask & OBJECT_BITS[key]) !== 0;
  return out;
}

/** True when the mask holds every bit of `required`. */
export function hasPermission(mask: number, required: number): boolean {
  return (mask & required) === required;
}

/** True when the mask holds any mount bit ("mount access" in docs/PRODUCT.md §6.2). */
export function hasMountAccess(mask: number): boolean {
  return (mask & MOUNT_BITS) !== 0;
}

/**
 * Normalises an absolute slash path: collapses repeated slashes, drops a trailing slash
 * (except for the root) and rejects `..`, `.`, backslashes and NUL bytes by returning null.
 */
export function normalizePath(path: string): string | null {
  if (typeof path !== "string") return null;
  if (path.includes("\0") || path.includes("\\")) return null;
  const parts = path.split("/").filter((p) => p !== "");
  if (parts.some((p) => p === ".." || p === ".")) return null;
  return "/" + parts.join("/");
}

/** Why a path given as a key's base path is refused, as an error code; null when it is fine. */
export type PathProblem =
  | "base_path_not_absolute"
  | "base_path_dot_segment"
  | "base_path_backslash"
  | "base_path_nul";

/**
 * The problem of an absolute slash path that `normalizePath` would refuse, or null: not
 * starting with `/`, a `.` or `..` segment, a backslash or a NUL byte, in that order of
 * precedence (the first that applies is the one a person needs to fix).
 */
export function pathProblem(path: string): PathProblem | null {
  if (path.includes("\0")) return "base_path_nul";
  if (path.includes("\\")) return "base_path_backslash";
  if (path.split("/").some((p) => p === ".." || p === ".")) return "base_path_dot_segment";
  if (!path.startsWith("/")) return "base_path_not_absolute";
  return null;
}

/**
 * True when `path` equals `basePath` or lies below it, separator-aware: `/a` covers `/a/b`
 * but not `/ab`. Both are normalised first; an invalid path is never covered.
 */
export function isPathWithinBase(path: string, basePath: string): boolean {
  const p = normalizePath(path);
  const b = normalizePath(basePath);
  if (p === null || b === null) return false;
  if (b === "/") return true;
  return p === b || p.startsWith(b + "/");
}
