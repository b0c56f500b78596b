/**
 * The directory cache of mount listings (the registry's `directory` cache). A page is kept per
 * storage config, folder prefix, mount and page (cursor, limit) for the mount's `cache_ttl`
 * seconds; 0 means the mount is not cached.
 *
 * Entries are keyed by storage config and storage prefix, not only by mount, because two mounts
 * can show the same store: a write through either one must drop what both have cached. Writes
 * find what to drop from the storage key they touch: every folder above it (a new or vanished
 * sub-folder shows there) and everything below it (folder moves and deletes). `watch` wraps a
 * driver so that each of its writes does this by itself, whichever code path makes it.
 */
import type { TtlCache } from "../services/caches.ts";
import type { ListResult, StorageDriver } from "../storage/driver.ts";

/** What the cache needs of a mount. */
export type CachedMount = { id: string; storage_config_id: string; cache_ttl: number };

/** Driver methods that change listings, and the keys each one writes. */
const WRITES: Record<string, (args: unknown[]) => string[]> = {
  put: (a) => [a[0] as string],
  delete: (a) => [a[0] as string],
  createFolder: (a) => [a[0] as string],
  deletePrefix: (a) => [(a[0] as string).replace(/\/$/, "")],
  copy: (a) => [a[1] as string],
  move: (a) => [a[0] as string, a[1] as string],
  completeMultipart: (a) => [a[0] as string],
};

function keyOf(configId: string, prefix: string, mountId: string, cursor = "", limit = ""): string {
  return [configId, prefix, mountId, cursor, limit].join("\0");
}

export class DirectoryCache {
  /** Bumped by every invalidation: a load that overlapped a write is not kept. */
  private generation = 0;

  constructor(private cache: TtlCache<unknown>) {}

  /**
   * One listing page of a mount folder (`prefix` is "" or ends in `/`): the cached page while
   * it is fresh, else `load()`'s, kept for the mount's TTL. `refresh` skips the cache and drops
   * the folder's other cached pages.
   */
  async page(
    mount: CachedMount,
    prefix: string,
    opts: { cursor?: string; limit?: number; refresh?: boolean },
    load: () => Promise<ListResult>,
  ): Promise<ListResult> {
    const ttlMs = mount.cache_ttl * 1000;
    if (ttlMs <= 0) return await load();
    const key = keyOf(
      mount.storage_config_id,
      prefix,
      mount.id,
      opts.cursor,
      `${opts.limit ?? ""}`,
    );
    if (opts.refresh) this.dropFolder(mount.storage_config_id, prefix);
    else {
      const hit = this.cache.get(key);
      if (hit !== undefined) return hit as ListResult;
    }
    const generation = this.generation;
    const page = await load();
    if (generation === this.generation) this.cache.set(key, page, ttlMs);
    return page;
  }

  /** Drops the cached pages a write at storage `key` of a config may have changed. */
  invalidate(configId: string, key: string): void {
    const below = `${key}/`;
    this.generation++;
    this.cache.deleteWhere((k) => {
      const [cfg, prefix] = k.split("\0");
      return cfg === configId && (key.startsWith(prefix) || prefix.startsWith(below));
    });
  }

  private dropFolder(configId: string, prefix: string): void {
    this.cache.deleteWhere((k) => {
      const [cfg, p] = k.split("\0");
      return cfg === configId && p === prefix;
    });
  }

  /** The driver, with every write (put, delete, move...) invalidating what it changes. */
  watch(driver: StorageDriver, configId: string): StorageDriver {
    return new Proxy(driver, {
      get: (target, prop) => {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        const written = typeof prop === "string" ? WRITES[prop] : undefined;
        if (!written) return value.bind(target);
        return async (...args: unknown[]) => {
          try {
            return await value.apply(target, args);
          } finally {
            for (const k of written(args)) this.invalidate(configId, k);
          }
        };
      },
    });
  }
}
