/**
 * Mount search: answers queries (search_query.ts) through a result cache, and keeps the name
 * index current. Every write through Cubby updates it (FsService and copy tasks call the hooks
 * below); a rebuild walks a storage for changes made elsewhere.
 */
import type { SearchRepo } from "./search_repo.ts";
import { foldName, type IndexedObject } from "./search_repo.ts";
import { findMatches, itemsOf, rangesFor } from "./search_query.ts";
import type { MountService } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import { KeyGroups, type TtlCache } from "../services/caches.ts";
import type { CacheEpochs, EpochName } from "../kv/cache_epochs.ts";
import type { Auth } from "../services/auth.ts";
import type { StorageDriver } from "../storage/driver.ts";
import { badRequest } from "../errors.ts";
import { SEARCH_MIN_LENGTH } from "../../shared/constants.ts";
import {
  fileEntry,
  folderEntry,
  type RebuildIndex,
  startRebuild,
  viewRebuild,
  walkPages,
} from "./search_rebuild.ts";

import type {
  IndexTarget,
  SearchHooks,
  SearchInput,
  SearchResult,
  WrittenInfo,
} from "./search_types.ts";

/** A cached result and the epochs it was computed under. */
type StampedResult = { stamp: string; result: SearchResult };

const storageEpoch = (cfg: string): EpochName => `storage:${cfg}`;

const PAGE_OBJECTS = 500;

export class SearchService implements SearchHooks, RebuildIndex {
  /** The cached results by the storage configs they read (a write drops its config's). */
  private byConfig: KeyGroups;

  constructor(
    readonly repo: SearchRepo,
    readonly mounts: MountService,
    readonly storage: StorageConfigService,
    readonly cache: TtlCache<unknown>,
    readonly epochs: CacheEpochs,
    readonly log: (msg: string) => void = console.error,
  ) {
    this.byConfig = new KeyGroups(cache);
  }

  /** Searches names; throws 400 search_too_short, 403 outside the key's base path, 404. */
  async search(input: SearchInput, auth: Auth): Promise<SearchResult> {
    const q = foldName(input.q.trim());
    if ([...q].length < SEARCH_MIN_LENGTH) {
      throw badRequest("search_too_short", { min: SEARCH_MIN_LENGTH });
    }
    const ranges = rangesFor(await this.mounts.list(auth), input, auth);
    const cacheKey = JSON.stringify([
      q,
      input.offset,
      input.limit,
      ranges.map((r) => [r.mount.id, r.mount.mount_path, r.mount.storage_config_id, r.dir, r.self]),
    ]);
    // Served only while no instance changed an index it read, nor cleared the caches (one
    // read; the epochs are read before the search, so a result it overlapped is not kept).
    const configs = [...new Set(ranges.map((r) => r.mount.storage_config_id))];
    const stamp = await this.epochs.stamp("caches", ...configs.map(storageEpoch));
    const hit = this.cache.getIf(cacheKey, (v) => (v as StampedResult).stamp === stamp);
    if (hit) return (hit as StampedResult).result;
    const matches = await findMatches(this.repo, q, ranges);
    const page = matches.slice(input.offset, input.offset + input.limit);
    const result: SearchResult = {
      items: await itemsOf(this.repo, page, ranges),
      total: matches.length,
      limit: input.limit,
      offset: input.offset,
    };
    this.byConfig.add(cacheKey, configs);
    this.cache.set(cacheKey, { stamp, result } satisfies StampedResult);
    return result;
  }

  /**
   * Indexes a written file, or a folder with everything below it, and the folders above it.
   * The config's epoch moves in the commit of a file's entry, so one commit both indexes the
   * file and makes every instance drop its cached listings and searches of the config.
   */
  async pathWritten(target: IndexTarget, info?: WrittenInfo): Promise<void> {
    const cfg = target.mount.storage_config_id;
    await this.guard(cfg, async () => {
      if (!target.key) return false;
      if (info?.type === "file") {
        const entry = fileEntry(info.size ?? 0, info.modified ?? null);
        await this.upsert(cfg, [{ key: target.key, entry }], true, true);
        return true;
      }
      const driver = await this.driverOf(cfg);
      const head = info ? null : await driver.head(target.key);
      if (head) {
        const entry = fileEntry(head.size, head.lastModified.toISOString());
        await this.upsert(cfg, [{ key: target.key, entry }], true, true);
        return true;
      }
      await this.upsert(cfg, [{ key: target.key, entry: folderEntry() }], true);
      for await (const page of walkPages(driver, target.key)) await this.upsert(cfg, page, false);
      return false;
    });
  }

  /** Drops a file, or a folder with everything below it, from the index. */
  async pathRemoved(target: IndexTarget): Promise<void> {
    const cfg = target.mount.storage_config_id;
    await this.guard(cfg, async () => {
      if (!target.key) return false;
      await this.repo.remove(cfg, [target.key]);
      await this.removeWhere(cfg, target.key, () => true);
      return false;
    });
  }

  /** Starts a background rebuild of a mount's storage index (admin); 409 if one is running. */
  async rebuild(mountId: string, auth: Auth) {
    return await startRebuild(this, mountId, auth);
  }

  /** The rebuild status of a mount's storage index (admin). */
  async rebuildStatus(mountId: string, auth: Auth) {
    return await viewRebuild(this, mountId, auth);
  }

  /** Drops the whole index of a storage config; call it when the config is deleted. */
  async forgetStorage(configId: string): Promise<void> {
    await this.repo.purge(configId);
    await this.invalidate(configId);
  }

  /**
   * Writes objects, reading first which are indexed already (only their entry changes). With
   * `parents`, the folders above them get entries too; with `moveEpoch`, the last commit also
   * moves the config's cache epoch.
   */
  async upsert(
    cfg: string,
    objects: IndexedObject[],
    parents: boolean,
    moveEpoch = false,
  ): Promise<void> {
    const all = new Map(objects.map((o) => [o.key, o]));
    if (parents) {
      for (const o of objects) {
        const parts = o.key.split("/");
        for (let i = 1; i < parts.length; i++) {
          const key = parts.slice(0, i).join("/");
          if (!all.has(key)) all.set(key, { key, entry: folderEntry(), known: false });
        }
      }
    }
    const existing = await this.repo.getEntries(cfg, [...all.keys()]);
    const own = new Set(objects.map((o) => o.key));
    const writes: IndexedObject[] = [];
    for (const o of all.values()) {
      if (!own.has(o.key) && existing.has(o.key)) continue; // a folder above: leave it as it is
      writes.push({ ...o, known: existing.has(o.key) });
    }
    await this.repo.put(cfg, writes, moveEpoch ? [this.epochs.bumpWrite(storageEpoch(cfg))] : []);
  }

  /** Removes the entries below `dir` that `drop` selects; returns how many. */
  async removeWhere(cfg: string, dir: string, drop: (o: IndexedObject) => boolean) {
    let batch: string[] = [];
    let removed = 0;
    for await (const o of this.repo.listTree(cfg, dir)) {
      if (!drop(o)) continue;
      batch.push(o.key);
      if (batch.length >= PAGE_OBJECTS) {
        await this.repo.remove(cfg, batch);
        removed += batch.length;
        batch = [];
      }
    }
    await this.repo.remove(cfg, batch);
    return removed + batch.length;
  }

  /**
   * Drops the cached results that read a config's index, here and (by moving the config's
   * epoch, unless `moved` already) on every instance; a failed move is logged, and results
   * elsewhere live out their TTL.
   */
  async invalidate(cfg: string, moved = false): Promise<void> {
    for (const key of this.byConfig.keysOf(cfg)) this.cache.delete(key);
    if (moved) return;
    await this.epochs.bump(storageEpoch(cfg)).catch((err) =>
      this.log(`Cached search results of storage ${cfg} may stay stale elsewhere: ${err}`)
    );
  }

  /** The storage driver of a config; throws 404 when the config is gone. */
  async driverOf(cfg: string): Promise<StorageDriver> {
    return await this.storage.mountDriverFor(await this.storage.getRecord(cfg));
  }

  /**
   * Runs an index update, which returns true when its commit moved the config's epoch; a
   * failure is logged (a rebuild repairs it), never thrown. The epoch moves in any case.
   */
  private async guard(cfg: string, fn: () => Promise<boolean>): Promise<void> {
    let moved = false;
    try {
      moved = await fn();
    } catch (err) {
      this.log(`search index update failed (storage ${cfg}): ${err}`);
    } finally {
      await this.invalidate(cfg, moved);
    }
  }
}
