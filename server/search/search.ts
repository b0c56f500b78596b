/**
 * Mount search over the name index of search_repo.ts. A query picks, among up to six of its
 * grams, the one with the shortest posting list by reading them in lockstep until the first
 * runs out; the candidates are then checked against the whole name. Only the key ranges the
 * caller may see are read: each active visible mount, narrowed to the key's base path and the
 * scope. Every write through Cubby keeps the index current (FsService and copy tasks call the
 * hooks below); a rebuild walks a storage for changes made elsewhere.
 */
import type { SearchEntry, SearchRepo } from "./search_repo.ts";
import { foldName, gramsOf, type IndexedObject, nameOfKey } from "./search_repo.ts";
import type { MountService } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { TtlCache } from "../services/caches.ts";
import type { Auth } from "../services/auth.ts";
import type { StorageDriver } from "../storage/driver.ts";
import type { MountView } from "../../shared/schemas/mounts.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { isPathWithinBase, normalizePath } from "../../shared/permissions.ts";
import { contentTypeFor } from "../../shared/mime.ts";
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
  SearchItem,
  SearchResult,
  WrittenInfo,
} from "./search_types.ts";

/** A key range the caller may see: a mount, the folder below which to look, and that folder. */
type Range = { mount: MountView; dir: string; self: boolean };
type Match = { r: number; key: string };

const RACED_GRAMS = 6;
const RACE_STEP = 256;
const PAGE_OBJECTS = 500;

export class SearchService implements SearchHooks, RebuildIndex {
  constructor(
    readonly repo: SearchRepo,
    readonly mounts: MountService,
    readonly storage: StorageConfigService,
    readonly cache: TtlCache<unknown>,
    readonly log: (msg: string) => void = console.error,
  ) {}

  /** Searches names; throws 400 search_too_short, 403 outside the key's base path, 404. */
  async search(input: SearchInput, auth: Auth): Promise<SearchResult> {
    const q = foldName(input.q.trim());
    if ([...q].length < SEARCH_MIN_LENGTH) {
      throw badRequest("search_too_short", { min: SEARCH_MIN_LENGTH });
    }
    const ranges = await this.rangesFor(input, auth);
    const cacheKey = JSON.stringify([
      q,
      input.offset,
      input.limit,
      ranges.map((r) => [r.mount.id, r.mount.mount_path, r.mount.storage_config_id, r.dir, r.self]),
    ]);
    return await this.cache.getOrSet(cacheKey, async () => {
      const matches = await this.match(q, ranges);
      const page = matches.slice(input.offset, input.offset + input.limit);
      return {
        items: await this.itemsOf(page, ranges),
        total: matches.length,
        limit: input.limit,
        offset: input.offset,
      };
    }) as SearchResult;
  }

  /** The ranges to read: visible active mounts, cut to the scope and the key's base path. */
  private async rangesFor(input: SearchInput, auth: Auth): Promise<Range[]> {
    const mounts = (await this.mounts.list(auth)).filter((m) => m.is_active);
    const base = auth.type === "apikey" ? auth.basicPath : "/";
    let root = "/";
    let self = true;
    if (input.scope === "mount") {
      const m = mounts.find((m) => m.id === input.mountId);
      if (!m) throw notFound("mount_not_found");
      root = m.mount_path;
    } else if (input.scope === "directory") {
      const p = normalizePath(input.path ?? "");
      if (p === null) throw badRequest("storage_path_invalid");
      root = p;
      self = false;
    }
    if (!isPathWithinBase(root, base)) {
      if (!isPathWithinBase(base, root)) throw new AppError("forbidden", 403, { path: root });
      [root, self] = [base, true];
    }
    const ranges: Range[] = [];
    for (const m of mounts) {
      if (isPathWithinBase(m.mount_path, root)) ranges.push({ mount: m, dir: "", self: false });
      else if (isPathWithinBase(root, m.mount_path)) {
        ranges.push({ mount: m, dir: root.slice(m.mount_path.length + 1), self });
      }
    }
    return ranges;
  }

  /** Every match in range order, then key order. */
  private async match(q: string, ranges: Range[]): Promise<Match[]> {
    const found = new Map<string, Match>();
    const add = (r: number, key: string) => {
      if (foldName(nameOfKey(key)).includes(q)) found.set(`${r}\0${key}`, { r, key });
    };
    for (const m of await this.candidates(q, ranges)) add(m.r, m.key);
    for (const [r, range] of ranges.entries()) {
      const cfg = range.mount.storage_config_id;
      for await (const key of this.repo.longKeys(cfg, range.dir)) add(r, key);
      if (range.self && range.dir && (await this.repo.getEntries(cfg, [range.dir])).size) {
        add(r, range.dir);
      }
    }
    return [...found.values()].sort((a, b) =>
      a.r - b.r || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
    );
  }

  /**
   * The postings of the query's rarest gram: up to six trigrams are read in lockstep and the
   * first list to end is the answer, so a query costs about six times its rarest gram. A
   * 2-character query reads the one range of grams that start with it.
   */
  private async candidates(q: string, ranges: Range[]): Promise<Match[]> {
    const repo = this.repo;
    const pair = [...q].length < 3;
    const all = pair ? [q] : gramsOf(q, 3);
    const grams = all.length <= RACED_GRAMS
      ? all
      : Array.from({ length: RACED_GRAMS }, (_, i) =>
        all[Math.round(i * (all.length - 1) / (RACED_GRAMS - 1))]);
    const lists = grams.map(() => [] as Match[]);
    const iterators = grams.map(async function* (gram) {
      for (const [r, { mount, dir }] of ranges.entries()) {
        const cfg = mount.storage_config_id;
        const keys = pair ? repo.pairKeys(cfg, gram, dir) : repo.gramKeys(cfg, gram, dir);
        for await (const key of keys) yield { r, key };
      }
    });
    try {
      while (true) {
        const ended = await Promise.all(iterators.map(async (it, i) => {
          for (let n = 0; n < RACE_STEP; n++) {
            const next = await it.next();
            if (next.done) return true;
            lists[i].push(next.value);
          }
          return false;
        }));
        const first = ended.indexOf(true);
        if (first >= 0) return lists[first];
      }
    } finally {
      await Promise.all(iterators.map((it) => it.return(undefined)));
    }
  }

  /** Result items of a page of matches, read from the index entries. */
  private async itemsOf(page: Match[], ranges: Range[]): Promise<SearchItem[]> {
    const entries = new Map<string, SearchEntry>();
    const byConfig = Map.groupBy(page, (m) => ranges[m.r].mount.storage_config_id);
    for (const [cfg, ms] of byConfig) {
      const got = await this.repo.getEntries(cfg, [...new Set(ms.map((m) => m.key))]);
      for (const [key, e] of got) entries.set(`${cfg}\0${key}`, e);
    }
    const items: SearchItem[] = [];
    for (const m of page) {
      const mount = ranges[m.r].mount;
      const e = entries.get(`${mount.storage_config_id}\0${m.key}`);
      if (!e) continue; // removed since it matched
      const name = nameOfKey(m.key);
      items.push({
        name,
        path: `${mount.mount_path}/${m.key}`,
        type: e.type,
        size: e.size,
        modified: e.modified,
        mimetype: e.type === "file" ? contentTypeFor(name) : null,
        mount_id: mount.id,
      });
    }
    return items;
  }

  /** Indexes a written file, or a folder with everything below it, and the folders above it. */
  async pathWritten(target: IndexTarget, info?: WrittenInfo): Promise<void> {
    const cfg = target.mount.storage_config_id;
    await this.guard(cfg, async () => {
      if (!target.key) return;
      if (info?.type === "file") {
        const entry = fileEntry(info.size ?? 0, info.modified ?? null);
        return await this.upsert(cfg, [{ key: target.key, entry }], true);
      }
      const driver = await this.driverOf(cfg);
      const head = info ? null : await driver.head(target.key);
      if (head) {
        const entry = fileEntry(head.size, head.lastModified.toISOString());
        return await this.upsert(cfg, [{ key: target.key, entry }], true);
      }
      await this.upsert(cfg, [{ key: target.key, entry: folderEntry() }], true);
      for await (const page of walkPages(driver, target.key)) await this.upsert(cfg, page, false);
    });
  }

  /** Drops a file, or a folder with everything below it, from the index. */
  async pathRemoved(target: IndexTarget): Promise<void> {
    const cfg = target.mount.storage_config_id;
    await this.guard(cfg, async () => {
      if (!target.key) return;
      await this.repo.remove(cfg, [target.key]);
      await this.removeWhere(cfg, target.key, () => true);
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
    this.invalidate(configId);
  }

  /**
   * Writes objects, reading first which are indexed already (only their entry changes). With
   * `parents`, the folders above them get entries too.
   */
  async upsert(cfg: string, objects: IndexedObject[], parents: boolean): Promise<void> {
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
    await this.repo.put(cfg, writes);
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

  /** Drops the cached results that read a config's index. */
  invalidate(cfg: string): void {
    this.cache.deleteWhere((k) => k.includes(`"${cfg}"`));
  }

  /** The storage driver of a config; throws 404 when the config is gone. */
  async driverOf(cfg: string): Promise<StorageDriver> {
    return await this.storage.mountDriverFor(await this.storage.getRecord(cfg));
  }

  /** Runs an index update; a failure is logged (a rebuild repairs it), never thrown. */
  private async guard(cfg: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.log(`search index update failed (storage ${cfg}): ${err}`);
    } finally {
      this.invalidate(cfg);
    }
  }
}
