/**
 * In-process TTL caches with hit, miss and item counts, kept in one named registry so the
 * dashboard can report them and the cache endpoints can clear them.
 *
 * These caches only save work: every value can be recomputed, and every caller still checks KV
 * for what decides correctness (a deleted share is gone whether or not a URL of it is cached).
 * Each instance has its own caches. A clear moves the `caches` epoch in KV (kv/cache_epochs.ts):
 * listings and search results check it before they are served, and every instance that follows
 * it drops its items too, so a clear through one instance clears them all. Statistics are the
 * answering instance's own. Counts of hits and misses run from process start; clearing drops the
 * items only.
 */
import type { CacheEpochs } from "../kv/cache_epochs.ts";

import type { CacheClearResult, CacheStats } from "../../shared/schemas/dashboard.ts";

export type { CacheClearResult, CacheStats };

/** Who may clear a cache: `user` caches are also cleared by POST /api/user/cache/clear. */
export type CacheScope = "admin" | "user";

export type CacheOptions = {
  /** Lifetime of an entry unless `set` gives its own. */
  ttlMs: number;
  /** The oldest-used entries are dropped beyond this many. */
  maxItems: number;
  scope: CacheScope;
};

/** A TTL cache of string keys; least recently used entries go first when it is full. */
export class TtlCache<V> {
  private entries = new Map<string, { value: V; expires: number }>();
  private hits = 0;
  private misses = 0;
  private dropped: ((key: string) => void)[] = [];

  constructor(readonly name: string, readonly options: CacheOptions) {}

  /**
   * Calls `fn` with each key that leaves the cache: expired, evicted, deleted or cleared (not
   * when `set` replaces its value). An index of the keys kept elsewhere follows the cache so.
   */
  onDrop(fn: (key: string) => void): void {
    this.dropped.push(fn);
  }

  private remove(key: string): void {
    if (!this.entries.delete(key)) return;
    for (const fn of this.dropped) fn(key);
  }

  /** The live value of a key (a hit), or undefined (a miss). */
  get(key: string, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e || e.expires <= now) {
      if (e) this.remove(key);
      this.misses++;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, e);
    this.hits++;
    return e.value;
  }

  /**
   * The live value of a key if `valid` accepts it (a hit); a value it refuses is dropped and
   * counts as a miss, like an expired one.
   */
  getIf(key: string, valid: (value: V) => boolean, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (e && e.expires > now && !valid(e.value)) {
      this.remove(key);
      this.misses++;
      return undefined;
    }
    return this.get(key, now);
  }

  /** Stores a value for `ttlMs` (the cache's default when omitted); a ttl ≤ 0 stores nothing. */
  set(key: string, value: V, ttlMs = this.options.ttlMs, now = Date.now()): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + ttlMs });
    while (this.entries.size > this.options.maxItems) {
      this.remove(this.entries.keys().next().value!);
    }
  }

  /** Returns the cached value, or computes, stores and returns it. */
  async getOrSet(key: string, compute: () => Promise<V>, ttlMs?: number): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.set(key, value, ttlMs);
    return value;
  }

  /** Drops one key. */
  delete(key: string): void {
    this.remove(key);
  }

  /** Drops the keys that match, e.g. everything under one mount; returns how many. */
  deleteWhere(match: (key: string) => boolean): number {
    let n = 0;
    for (const key of [...this.entries.keys()]) {
      if (match(key)) {
        this.remove(key);
        n++;
      }
    }
    return n;
  }

  /** Drops every entry; returns how many live ones there were. */
  clear(now = Date.now()): number {
    const n = this.size(now);
    for (const key of [...this.entries.keys()]) this.remove(key);
    return n;
  }

  /** The number of live entries (expired ones are dropped on the way). */
  size(now = Date.now()): number {
    for (const [key, e] of this.entries) if (e.expires <= now) this.remove(key);
    return this.entries.size;
  }

  /** Hits, misses, hit rate and live items. */
  stats(now = Date.now()): CacheStats {
    const total = this.hits + this.misses;
    return {
      name: this.name,
      hits: this.hits,
      misses: this.misses,
      hit_rate: total === 0 ? 0 : Math.round((this.hits / total) * 10_000) / 10_000,
      items: this.size(now),
    };
  }
}

/**
 * The keys of a TtlCache filed under names (a key may be under several: a search under each
 * storage config it read), so that a write finds the keys it must drop without reading every key
 * of the cache. A key leaves its names when it leaves the cache, however it does (onDrop).
 */
export class KeyGroups {
  private groups = new Map<string, Set<string>>();
  private namesOf = new Map<string, string[]>();

  constructor(cache: TtlCache<unknown>) {
    cache.onDrop((key) => this.remove(key));
  }

  /**
   * Files `key` under `names`, right before the cache stores it (a full cache may drop it at
   * once, and the drop must find it filed). Only for a key the cache will store (a ttl > 0); a
   * key's names are those it was first filed under, so they must follow from the key itself.
   */
  add(key: string, names: string[]): void {
    if (this.namesOf.has(key)) return;
    this.namesOf.set(key, names);
    for (const name of names) {
      const group = this.groups.get(name);
      if (group) group.add(key);
      else this.groups.set(name, new Set([key]));
    }
  }

  /** The keys filed under `name`. */
  keysOf(name: string): string[] {
    return [...this.groups.get(name) ?? []];
  }

  /** How many keys are filed. */
  get size(): number {
    return this.namesOf.size;
  }

  private remove(key: string): void {
    const names = this.namesOf.get(key);
    if (!names) return;
    this.namesOf.delete(key);
    for (const name of names) {
      const group = this.groups.get(name);
      group?.delete(key);
      if (group?.size === 0) this.groups.delete(name);
    }
  }
}

/** The named caches of one process. */
export class CacheRegistry {
  private caches = new Map<string, TtlCache<unknown>>();

  /** Creates and registers a cache; throws if the name is taken. */
  register<V>(name: string, options: CacheOptions): TtlCache<V> {
    if (this.caches.has(name)) throw new Error(`Cache "${name}" is already registered`);
    const cache = new TtlCache<V>(name, options);
    this.caches.set(name, cache as TtlCache<unknown>);
    return cache;
  }

  /** Statistics of every cache, in registration order. */
  stats(): CacheStats[] {
    return [...this.caches.values()].map((c) => c.stats());
  }

  /** Clears every cache (admin). */
  clearAll(): CacheClearResult {
    return this.clearMatching(() => true);
  }

  /**
   * Clears the caches a logged-in user may clear. Today these are all `user`-scoped caches as a
   * whole; a cache holding per-mount entries can narrow this to the caller's mounts later.
   */
  clearForUser(): CacheClearResult {
    return this.clearMatching((c) => c.options.scope === "user");
  }

  private clearMatching(match: (c: TtlCache<unknown>) => boolean): CacheClearResult {
    const cleared = [...this.caches.values()].filter(match).map((c) => ({
      name: c.name,
      items: c.clear(),
    }));
    return { cleared, total: cleared.reduce((sum, c) => sum + c.items, 0) };
  }
}

/** Presigned GET URLs of S3 files live at least this long before they are handed out again. */
const S3_URL_MAX_TTL_MS = 10 * 60_000;

/** The TTL of a cached presigned URL: half its lifetime, at most 10 minutes. */
export function s3UrlTtlMs(expiresInSeconds: number): number {
  return Math.min(S3_URL_MAX_TTL_MS, Math.floor(expiresInSeconds * 1000 / 2));
}

/** Builds the registry with Cubby's three caches (the dashboard's cache monitoring). */
export function createCaches(epochs: CacheEpochs) {
  const registry = new CacheRegistry();
  return {
    registry,
    epochs,
    /**
     * Clears every cache of every instance (admin). This instance's caches are cleared (and
     * counted) before the bump: the bump reaches this instance's own follower too, which may
     * empty them before the commit's reply, and the count would then be 0.
     */
    async clearAll(): Promise<CacheClearResult> {
      const cleared = registry.clearAll();
      await epochs.bump("caches");
      return cleared;
    },
    /** Clears the user-scoped caches of every instance (counted first, as in clearAll). */
    async clearForUser(): Promise<CacheClearResult> {
      const cleared = registry.clearForUser();
      await epochs.bump("caches");
      return cleared;
    },
    /** Drops this instance's items whenever another instance clears (until stopFollowing). */
    followClears(): void {
      epochs.follow(["caches"], () => registry.clearAll());
    },
    /** Mount directory listings (the mount explorer); mounts give their own TTL per entry. */
    directory: registry.register<unknown>("directory", {
      ttlMs: 300_000,
      maxItems: 2_000,
      scope: "user",
    }),
    /** Presigned GET URLs of non-proxied S3 file shares, keyed by file and config version. */
    s3Url: registry.register<string>("s3_url", {
      ttlMs: S3_URL_MAX_TTL_MS,
      maxItems: 10_000,
      scope: "user",
    }),
    /** Search results (the mount search). */
    search: registry.register<unknown>("search", {
      ttlMs: 60_000,
      maxItems: 1_000,
      scope: "user",
    }),
  };
}

export type Caches = ReturnType<typeof createCaches>;
