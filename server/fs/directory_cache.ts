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
 *
 * Other instances keep listings of the same stores, so a write also moves the config's epoch in
 * KV (kv/cache_epochs.ts), and a cached page is served only while the epochs it was loaded under
 * (its config's, and the `caches` epoch that a clear moves) are still current: one KV read per
 * cached page instead of a listing of the store. The epochs are read before the load, so a page
 * whose load overlapped a write is never served after it.
 */
import type { TtlCache } from "../services/caches.ts";
import type { CacheEpochs, EpochName } from "../kv/cache_epochs.ts";
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

/** A cached page and the epochs it was loaded under. */
type Stamped = { stamp: string; page: ListResult };

/** The epochs a listing of a config depends on. */
const epochsOf = (configId: string): EpochName[] => [`storage:${configId}`, "caches"];

function keyOf(configId: string, prefix: string, mountId: string, cursor = "", limit = ""): string {
  return [configId, prefix, mountId, cursor, limit].join("\0");
}

export class DirectoryCache {
  constructor(
    private cache: TtlCache<unknown>,
    private epochs: CacheEpochs,
    private log: (msg: string) => void = console.error,
  ) {}

  /**
   * One listing page of a mount folder (`prefix` is "" or ends in `/`): the cached page while
   * it is fresh and no write moved its epochs, else `load()`'s, kept for the mount's TTL.
   * `refresh` skips the cache and drops the folder's other cached pages.
   */
  async page(
    mount: CachedMount,
    prefix: string,
    opts: { cursor?: string; limit?: number; refresh?: boolean },
    load: () => Promise<ListResult>,
  ): Promise<ListResult> {
    const ttlMs = mount.cache_ttl * 1000;
    if (ttlMs <= 0) return await load();
    const configId = mount.storage_config_id;
    const key = keyOf(configId, prefix, mount.id, opts.cursor, `${opts.limit ?? ""}`);
    if (opts.refresh) this.dropFolder(configId, prefix);
    const stamp = await this.epochs.stamp(...epochsOf(configId));
    if (!opts.refresh) {
      const hit = this.cache.getIf(key, (v) => (v as Stamped).stamp === stamp) as
        | Stamped
        | undefined;
      if (hit) return hit.page;
    }
    const page = await load();
    this.cache.set(key, { stamp, page } satisfies Stamped, ttlMs);
    return page;
  }

  /**
   * Drops the cached pages writes at storage `keys` of a config may have changed, here and (by
   * moving the config's epoch) on every instance. A failed epoch move is logged: the write
   * itself happened, and other instances' pages then live out their TTL.
   */
  async invalidate(configId: string, ...keys: string[]): Promise<void> {
    this.drop(configId, ...keys);
    await this.epochs.bump(`storage:${configId}`).catch((err) =>
      this.log(`Cached listings of storage ${configId} may stay stale elsewhere: ${err}`)
    );
  }

  /** Drops this instance's cached pages that writes at `keys` may have changed (no KV). */
  drop(configId: string, ...keys: string[]): void {
    for (const key of keys) {
      const below = `${key}/`;
      this.cache.deleteWhere((k) => {
        const [cfg, prefix] = k.split("\0");
        return cfg === configId && (key.startsWith(prefix) || prefix.startsWith(below));
      });
    }
  }

  private dropFolder(configId: string, prefix: string): void {
    this.cache.deleteWhere((k) => {
      const [cfg, p] = k.split("\0");
      return cfg === configId && p === prefix;
    });
  }

  /**
   * The driver, with every write (put, delete, move...) invalidating what it changes. With
   * `epoch: "caller"`, a write only drops this instance's pages: the caller moves the config's
   * epoch itself once the write is done (FsService, in the commit of the search index update).
   */
  watch(
    driver: StorageDriver,
    configId: string,
    epoch: "each write" | "caller" = "each write",
  ): StorageDriver {
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
            if (epoch === "caller") this.drop(configId, ...written(args));
            else await this.invalidate(configId, ...written(args));
          }
        };
      },
    });
  }
}
