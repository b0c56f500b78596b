/**
 * The per-item work of copy tasks (tasks.ts): counting the files an item stands for, copying
 * them in key order from the resume point, and recording failures on the task.
 */
import { freeName } from "./fs_conflicts.ts";
import type { TaskItem, TaskRecord, TaskRepo } from "./task_repo.ts";
import type { MountService, Resolved } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { SearchHooks } from "../search/search_types.ts";
import type { Auth } from "../services/auth.ts";
import { AppError, notFound } from "../errors.ts";

const MAX_ERRORS_KEPT = 50;

/** Saves a patch of the task record; false when the task changed under the runner. */
export type TaskSave = (patch: Partial<TaskRecord>) => Promise<boolean>;

/** What copying an item needs. */
export type CopyDeps = {
  repo: TaskRepo;
  mounts: MountService;
  storage: StorageConfigService;
  search?: SearchHooks;
  /** Aborts the file under way (the runner lost its lease); nothing more is saved then. */
  signal?: AbortSignal;
};

/** How many files an item stands for (1 for a file or a missing path, the files of a folder). */
export async function countFiles(
  storage: StorageConfigService,
  mounts: MountService,
  item: TaskItem,
  auth: Auth,
): Promise<number> {
  try {
    const from = await mounts.resolve(item.sourcePath, auth);
    const src = await storage.mountDriverFor(
      await storage.getRecord(from.mount.storage_config_id),
    );
    if (await src.head(from.key)) return 1;
    let n = 0;
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof src.list>> = await src.list(`${from.key}/`, {
        cursor: cursor ?? undefined,
        limit: 1000,
      });
      n += page.items.length;
      cursor = page.cursor;
    } while (cursor);
    return Math.max(n, 1);
  } catch {
    return 1;
  }
}

/**
 * Copies one item (a file, or every file of a folder in key order from `last_key`).
 * Returns false when the task was cancelled or changed meanwhile.
 */
export async function copyItem(
  deps: CopyDeps,
  item: TaskItem,
  auth: Auth,
  current: () => TaskRecord,
  save: TaskSave,
): Promise<boolean> {
  let from: Resolved, to: Resolved;
  try {
    from = await deps.mounts.resolve(item.sourcePath, auth);
    to = await deps.mounts.resolve(item.targetPath, auth);
  } catch (err) {
    return await recordFailure(current(), save, item.sourcePath, err);
  }
  const src = await deps.storage.mountDriverFor(
    await deps.storage.getRecord(from.mount.storage_config_id),
  );
  const dst = await deps.storage.mountDriverFor(
    await deps.storage.getRecord(to.mount.storage_config_id),
  );
  const sameStorage = from.mount.storage_config_id === to.mount.storage_config_id;
  const copyOne = async (fromKey: string, target: string, label: string): Promise<boolean> => {
    if ((await deps.repo.get(current().id)).value?.status === "cancelled") return false;
    if (!await save({ current_file: label })) return false;
    try {
      const mode = current().on_conflict ?? (current().skip_existing ? "skip" : "overwrite");
      let toKey = target;
      if (mode !== "overwrite" && await dst.head(toKey)) {
        if (mode === "skip") {
          return await save({ skipped_count: current().skipped_count + 1, last_key: fromKey });
        }
        const slash = toKey.lastIndexOf("/");
        const name = await freeName(
          toKey.slice(slash + 1),
          async (n) => (await dst.head(toKey.slice(0, slash + 1) + n)) !== null,
        );
        toKey = toKey.slice(0, slash + 1) + name;
      }
      const signal = deps.signal;
      if (sameStorage) await src.copy(fromKey, toKey);
      else {
        const obj = await src.get(fromKey, { signal });
        await dst.put(toKey, obj.body, { size: obj.size, contentType: obj.contentType, signal });
      }
      await deps.search?.pathWritten({ mount: to.mount, key: toKey });
      return await save({ success_count: current().success_count + 1, last_key: fromKey });
    } catch (err) {
      return await recordFailure(current(), save, label, err, fromKey);
    }
  };
  if (await src.head(from.key)) return await copyOne(from.key, to.key, from.path);
  // A folder: copy every object below it, resuming after last_key.
  const intoItself = from.mount.storage_config_id === to.mount.storage_config_id &&
    to.key.startsWith(`${from.key}/`);
  let cursor: string | null | undefined = undefined;
  let first = true;
  do {
    const page = await src.list(`${from.key}/`, { cursor: cursor ?? undefined, limit: 1000 });
    if (first && page.items.length === 0 && page.prefixes.length === 0) {
      return await recordFailure(current(), save, from.path, notFound("file_not_found"));
    }
    first = false;
    for (const o of page.items) {
      const last = current().last_key;
      if (last !== null && o.key <= last) continue;
      if (intoItself && o.key.startsWith(`${to.key}/`)) continue;
      const rel = o.key.slice(from.key.length);
      if (!await copyOne(o.key, to.key + rel, from.path + rel)) return false;
    }
    cursor = page.cursor;
  } while (cursor);
  return true;
}

/** Counts a failed file and keeps its error (the last 50); false when the task changed. */
export async function recordFailure(
  rec: TaskRecord,
  save: TaskSave,
  path: string,
  err: unknown,
  lastKey?: string,
): Promise<boolean> {
  const code = err instanceof AppError ? err.code : "internal";
  if (!(err instanceof AppError)) console.error(`task ${rec.id}: ${path}:`, err);
  return await save({
    failed_count: rec.failed_count + 1,
    errors: [...rec.errors, { path, error: code }].slice(-MAX_ERRORS_KEPT),
    ...(lastKey ? { last_key: lastKey } : {}),
  });
}
