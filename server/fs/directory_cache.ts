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
 *
 * A write finds the pages it drops through an index of the cached pages by config and folder
 * (KeyGroups in caches.ts), so its cost does not grow with how many pages are cached: reading
 * every key of a full cache (2,000 pages) cost about 0.9 ms per write, more than a small WebDAV
 * PUT's own work.
 */
import { KeyGroups, type TtlCache } from "../services/caches.ts";
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

/** The folders a page prefix lies in, itself included: "a/b/" → "a/", "a/b/" ("" → none). */
function foldersOf(prefix: string): string[] {
  const out: string[] = [];
  for (let at = prefix.indexOf("/"); at >= 0; at = prefix.indexOf("/", at + 1)) {
    out.push(prefix.slice(0, at + 1));
  }
  return out;
}

/** The index name of the pages listing folder `prefix` of a config. */
const listing = (configId: string, prefix: string) => `${configId}\0=${prefix}`;
/** The index name of the pages listing folder `folder` of a config or any folder below it. */
const within = (configId: string, folder: string) => `${configId}\0<${folder}`;

export class DirectoryCache {
  /** The cached pages by the folder they list, and by every folder they lie in. */
  private index: KeyGroups;

  constructor(
    private cache: TtlCache<unknown>,
    private epochs: CacheEpochs,
    private log: (msg: string) => void = console.error,
  ) {
    this.index = new KeyGroups(cache);
  }

  /** How many pages the write index holds: as many as the cache (they leave it together). */
  get indexedPages(): number {
    return this.index.size;
  }

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
    const folders = foldersOf(prefix).map((folder) => within(configId, folder));
    this.index.add(key, [listing(configId, prefix), ...folders]);
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
      // Every folder above (a new or vanished entry shows there; "" is the root) and every
      // folder below (moves and deletes of a folder).
      for (const folder of ["", ...foldersOf(key)]) this.dropFolder(configId, folder);
      for (const page of this.index.keysOf(within(configId, `${key}/`))) this.cache.delete(page);
    }
  }

  private dropFolder(configId: string, prefix: string): void {
    for (const page of this.index.keysOf(listing(configId, prefix))) this.cache.delete(page);
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
