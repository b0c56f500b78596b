/**
 * Cubby's reserved area in every storage, and the one guard that keeps mounts out of it.
 *
 * File-share objects live under `.cubby-shares/` at the top of their storage (local or S3), and
 * scheduled backups under `.cubby-backups/`.
 * A mount maps a path onto the same storage, so without a guard the explorer, WebDAV, search,
 * tasks and proxy links would list those objects and could rename, overwrite or delete them,
 * breaking share links. Every top-level name starting with `.cubby-` (in any case) is
 * therefore Cubby's own: `mountScoped(driver)` is the driver every mount-facing service uses,
 * and it neither lists such keys nor lets any call touch them (403 `storage_path_reserved`).
 * `MountService.resolve` refuses such paths with the same check before a driver is reached.
 */
import { AppError } from "../errors.ts";
import type { ListResult, MultipartUploadInfo, StorageDriver } from "./driver.ts";

/** Top-level names with this prefix belong to Cubby, never to a mount. */
export const RESERVED_TOP_PREFIX = ".cubby-";
/** The top-level folder that holds file-share objects. */
export const SHARE_OBJECTS_FOLDER = ".cubby-shares";
/** The top-level folder that holds scheduled backups (server/backup/scheduled_backups.ts). */
export const BACKUP_OBJECTS_FOLDER = ".cubby-backups";

/** Whether a storage key (or raw key prefix) lies in Cubby's reserved area. */
export function isReservedKey(key: string): boolean {
  return key.replace(/^\/+/, "").split("/")[0].toLowerCase().startsWith(RESERVED_TOP_PREFIX);
}

/** Throws 403 `storage_path_reserved` when a mount key lies in the reserved area. */
export function assertMountKey(key: string): void {
  if (isReservedKey(key)) throw new AppError("storage_path_reserved", 403, { key });
}

/** Whether deleting everything under a raw prefix could reach the reserved area. */
function prefixReachesReserved(prefix: string): boolean {
  if (prefix.includes("/")) return isReservedKey(prefix);
  return RESERVED_TOP_PREFIX.startsWith(prefix.toLowerCase()) || isReservedKey(prefix);
}

/** Methods whose arguments at these positions are keys. */
const KEY_ARGS: Record<string, number[]> = {
  put: [0],
  get: [0],
  head: [0],
  lookup: [0],
  delete: [0],
  createFolder: [0],
  copy: [0, 1],
  move: [0, 1],
  presignGet: [0],
  presignPut: [0],
  presignPart: [0],
  createMultipart: [0],
  uploadPart: [0],
  listParts: [0],
  completeMultipart: [0],
  abortMultipart: [0],
};

function hideReserved(page: ListResult): ListResult {
  return {
    ...page,
    items: page.items.filter((o) => !isReservedKey(o.key)),
    prefixes: page.prefixes.filter((p) => !isReservedKey(p)),
  };
}

/**
 * The driver as a mount sees it: keys in the reserved area are left out of listings, and any
 * call naming one throws 403 `storage_path_reserved`. Other calls pass straight through.
 */
export function mountScoped(driver: StorageDriver): StorageDriver {
  return new Proxy(driver, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const fn = value.bind(target) as (...args: unknown[]) => unknown;
      if (prop === "list") {
        return async (prefix: string, opts?: unknown) => {
          if (isReservedKey(prefix) && prefix.includes("/")) {
            throw new AppError("storage_path_reserved", 403, { key: prefix });
          }
          return hideReserved(await fn(prefix, opts) as ListResult);
        };
      }
      if (prop === "deletePrefix") {
        return (prefix: string) => {
          if (prefixReachesReserved(prefix)) {
            return Promise.reject(new AppError("storage_path_reserved", 403, { key: prefix }));
          }
          return fn(prefix);
        };
      }
      if (prop === "listMultipartUploads") {
        return async (prefix?: string) =>
          (await fn(prefix) as MultipartUploadInfo[]).filter((u) => !isReservedKey(u.key));
      }
      const keyArgs = KEY_ARGS[prop as string];
      if (!keyArgs) return fn;
      return (...args: unknown[]) => {
        for (const i of keyArgs) {
          if (typeof args[i] === "string" && isReservedKey(args[i] as string)) {
            return Promise.reject(
              new AppError("storage_path_reserved", 403, { key: args[i] }),
            );
          }
        }
        return fn(...args);
      };
    },
  });
}
