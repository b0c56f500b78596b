/**
 * Rebuilding a storage's search index, for changes made outside Cubby. The rebuild walks the
 * storage folder by folder (so empty folders count), writes what it sees a listing page at a
 * time, and then drops the entries stamped before it began: those objects are gone. Its status
 * lives in KV with a heartbeat, so every instance reports it and a rebuild whose process died is
 * shown as failed and may be started again.
 */
import type { IndexedObject, RebuildRecord, SearchEntry, SearchRepo } from "./search_repo.ts";
import type { MountService } from "../services/mounts.ts";
import type { StorageDriver } from "../storage/driver.ts";
import type { Auth } from "../services/auth.ts";
import { AppError, conflict, forbidden, notFound } from "../errors.ts";

/** The parts of the search service (search.ts) a rebuild uses. */
export interface RebuildIndex {
  readonly repo: SearchRepo;
  readonly mounts: MountService;
  readonly log: (msg: string) => void;
  driverOf(cfg: string): Promise<StorageDriver>;
  upsert(cfg: string, objects: IndexedObject[], parents: boolean): Promise<void>;
  removeWhere(cfg: string, dir: string, drop: (o: IndexedObject) => boolean): Promise<number>;
  invalidate(cfg: string): void;
}

/** A rebuild whose heartbeat is older than this died with its process. */
const STALE_MS = 60_000;

/** What the rebuild status endpoint returns. */
export type RebuildView = {
  mount_id: string;
  state: "idle" | "running" | "completed" | "failed";
  indexed: number;
  removed: number;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
};

function isStale(rec: RebuildRecord, now = Date.now()): boolean {
  return rec.state === "running" && now - Date.parse(rec.heartbeat_at) > STALE_MS;
}

function toView(mountId: string, rec: RebuildRecord | null): RebuildView {
  if (!rec) {
    return {
      mount_id: mountId,
      state: "idle",
      indexed: 0,
      removed: 0,
      started_at: null,
      finished_at: null,
      error: null,
    };
  }
  const stale = isStale(rec);
  return {
    mount_id: mountId,
    state: stale ? "failed" : rec.state,
    indexed: rec.indexed,
    removed: rec.removed,
    started_at: rec.started_at,
    finished_at: rec.finished_at,
    error: stale ? "interrupted" : rec.error,
  };
}

async function mountOf(search: RebuildIndex, mountId: string, auth: Auth) {
  if (auth.type !== "admin") throw forbidden();
  const mount = (await search.mounts.list(auth)).find((m) => m.id === mountId);
  if (!mount) throw notFound("mount_not_found");
  return mount;
}

/** The rebuild status of the storage behind a mount (admin); throws 403, 404. */
export async function viewRebuild(
  search: RebuildIndex,
  mountId: string,
  auth: Auth,
): Promise<RebuildView> {
  const mount = await mountOf(search, mountId, auth);
  return toView(mountId, (await search.repo.getRebuild(mount.storage_config_id)).value);
}

/**
 * Claims the rebuild of a mount's storage and runs it in the background. Throws 403, 404,
 * 409 search_rebuild_running.
 */
export async function startRebuild(
  search: RebuildIndex,
  mountId: string,
  auth: Auth,
): Promise<RebuildRecord> {
  const mount = await mountOf(search, mountId, auth);
  const cfg = mount.storage_config_id;
  const current = await search.repo.getRebuild(cfg);
  if (current.value?.state === "running" && !isStale(current.value)) {
    throw conflict("search_rebuild_running");
  }
  const now = new Date().toISOString();
  const rec: RebuildRecord = {
    config_id: cfg,
    mount_id: mountId,
    state: "running",
    indexed: 0,
    removed: 0,
    started_at: now,
    finished_at: null,
    heartbeat_at: now,
    error: null,
  };
  if (!await search.repo.setRebuild(rec, current.versionstamp)) {
    throw conflict("search_rebuild_running");
  }
  runRebuild(search, rec).catch((err) => search.log(`search rebuild failed: ${err}`));
  return rec;
}

/** Walks the storage, indexes every page, then drops entries older than the start. */
export async function runRebuild(search: RebuildIndex, claimed: RebuildRecord) {
  const cfg = claimed.config_id;
  const started = Date.parse(claimed.started_at);
  let rec = claimed;
  const save = async (patch: Partial<RebuildRecord>) => {
    rec = { ...rec, ...patch, heartbeat_at: new Date().toISOString() };
    await search.repo.setRebuild(rec);
  };
  try {
    const driver = await search.driverOf(cfg);
    for await (const page of walkPages(driver, "")) {
      await search.upsert(cfg, page, false);
      await save({ indexed: rec.indexed + page.length });
      await search.invalidate(cfg);
    }
    const removed = await search.removeWhere(cfg, "", (o) => o.entry.indexed_at < started);
    await save({ state: "completed", removed, finished_at: new Date().toISOString() });
  } catch (err) {
    search.log(`search rebuild of storage ${cfg} failed: ${err}`);
    await save({
      state: "failed",
      error: err instanceof AppError ? err.code : "internal",
      finished_at: new Date().toISOString(),
    });
  } finally {
    await search.invalidate(cfg);
  }
  return toView(rec.mount_id, rec);
}

/** An index entry for a file, stamped now. */
export function fileEntry(size: number, modified: string | null): SearchEntry {
  return { type: "file", size, modified, indexed_at: Date.now() };
}

/** An index entry for a folder, stamped now. */
export function folderEntry(): SearchEntry {
  return { type: "directory", size: 0, modified: null, indexed_at: Date.now() };
}

/**
 * Every file and folder below `dir` ("" for the whole storage), a listing page at a time,
 * folder by folder, so empty folders are seen too (S3 folder markers are left out).
 */
export async function* walkPages(
  driver: StorageDriver,
  dir: string,
): AsyncGenerator<IndexedObject[]> {
  const queue = [dir];
  while (queue.length > 0) {
    const folder = queue.shift()!;
    let cursor: string | null = null;
    do {
      const page = await driver.list(folder ? `${folder}/` : "", { delimiter: "/", cursor });
      const out: IndexedObject[] = [];
      for (const pre of page.prefixes) {
        const key = pre.slice(0, -1);
        queue.push(key);
        out.push({ key, entry: folderEntry() });
      }
      for (const o of page.items) {
        if (o.key.endsWith("/")) continue;
        out.push({ key: o.key, entry: fileEntry(o.size, o.lastModified.toISOString()) });
      }
      if (out.length) yield out;
      cursor = page.cursor;
    } while (cursor);
  }
}
