/**
 * Copy tasks of the mount explorer, run in the background from records in KV. The record is
 * updated after every file (progress, counts, resume point), so a task survives a restart:
 * its lease lapses and the next runner continues from `next_item` / `last_key`.
 */
import { ulid } from "ulid";
import type { TaskItem, TaskRecord, TaskRepo } from "../kv/task_repo.ts";
import type { MountService, Resolved } from "./mounts.ts";
import type { StorageConfigService } from "./storage_configs.ts";
import type { ApiKeyService } from "./api_keys.ts";
import type { SearchHooks } from "./search.ts";
import { deleteItem, downloadItem, type TaskStepDeps } from "./task_steps.ts";
import { type Auth, creatorOf } from "./auth.ts";
import { AppError, badRequest, forbidden, notFound } from "../errors.ts";
import { ALL_PERMISSIONS } from "../../shared/permissions.ts";
import type { TaskView } from "../../shared/schemas/tasks.ts";

const LEASE_MS = 15_000;
const POLL_MS = 1_000;
const MAX_RECORD_BYTES = 60_000;
const MAX_ERRORS_KEPT = 50;

function toView(rec: TaskRecord): TaskView {
  const done = rec.success_count + rec.failed_count + rec.skipped_count;
  return {
    id: rec.id,
    type: rec.type,
    status: rec.status,
    progress: rec.status === "completed"
      ? 100
      : rec.total
      ? Math.floor((done / rec.total) * 100)
      : 0,
    current_file: rec.current_file,
    success_count: rec.success_count,
    failed_count: rec.failed_count,
    skipped_count: rec.skipped_count,
    total: rec.total,
    error: rec.error,
    errors: rec.errors,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
    completed_at: rec.completed_at,
    created_by: rec.created_by,
  };
}

export class TaskService {
  private owner = crypto.randomUUID();
  private timer: ReturnType<typeof setInterval> | null = null;
  private running = new Set<string>();

  constructor(
    private repo: TaskRepo,
    private mounts: MountService,
    private storage: StorageConfigService,
    private apiKeys: ApiKeyService,
    /** The search index, told of every file a task writes (search.ts). */
    private search?: SearchHooks,
    /** Delete and download items (task_steps.ts); without it only copies run. */
    private steps?: TaskStepDeps,
  ) {}

  /** Queues a copy of files or folders; checks every path now, and again per file later. */
  async createCopy(items: TaskItem[], skipExisting: boolean, auth: Auth): Promise<TaskView> {
    if (auth.type === "none") throw new AppError("unauthorized", 401);
    for (const item of items) {
      const from = await this.mounts.resolve(item.sourcePath, auth);
      const to = await this.mounts.resolve(item.targetPath, auth);
      if (!from.key || !to.key) throw badRequest("storage_path_invalid");
      // Into one of its own subfolders is allowed (the client warns first); the copy then
      // skips the target subtree, so it never copies its own output. Onto itself is refused.
      if (to.path === from.path) throw badRequest("copy_into_itself", { path: from.path });
    }
    return await this.enqueue("copy", items, skipExisting, auth);
  }

  /** Queues deletes of files or folders; each path is checked now and again when it runs. */
  async createDelete(paths: string[], auth: Auth): Promise<TaskView> {
    if (auth.type === "none") throw new AppError("unauthorized", 401);
    for (const path of paths) {
      if (!(await this.mounts.resolve(path, auth)).key) throw badRequest("storage_path_invalid");
    }
    return await this.enqueue(
      "delete",
      paths.map((p) => ({ sourcePath: p, targetPath: "" })),
      false,
      auth,
    );
  }

  /** Queues server-side downloads of URLs into a folder of a mount (an "offline download"). */
  async createDownload(urls: string[], folder: string, auth: Auth): Promise<TaskView> {
    if (auth.type === "none") throw new AppError("unauthorized", 401);
    await this.mounts.resolve(folder, auth);
    for (const url of urls) {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        throw badRequest("url_invalid", { url });
      }
      if (u.protocol !== "http:" && u.protocol !== "https:") {
        throw badRequest("url_invalid", { url });
      }
    }
    return await this.enqueue(
      "download",
      urls.map((u) => ({ sourcePath: u, targetPath: folder })),
      false,
      auth,
    );
  }

  private async enqueue(
    type: TaskRecord["type"],
    items: TaskItem[],
    skipExisting: boolean,
    auth: Exclude<Auth, { type: "none" }>,
  ): Promise<TaskView> {
    const now = new Date().toISOString();
    const rec: TaskRecord = {
      id: ulid(),
      type,
      status: "pending",
      items,
      skip_existing: skipExisting,
      next_item: 0,
      last_key: null,
      total: items.length,
      total_counted: type !== "copy",
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      current_file: null,
      error: null,
      errors: [],
      created_at: now,
      updated_at: now,
      completed_at: null,
      created_by: creatorOf(auth),
      actor: auth.type === "admin" ? { type: "admin" } : { type: "apikey", id: auth.id },
    };
    if (JSON.stringify(rec).length > MAX_RECORD_BYTES) throw badRequest("too_many_items");
    await this.repo.create(rec);
    this.kick();
    return toView(rec);
  }

  /** The caller's tasks (all for the admin), newest first. */
  async list(auth: Auth): Promise<TaskView[]> {
    const me = creatorOf(auth);
    return (await this.repo.list()).filter((t) => auth.type === "admin" || t.created_by === me)
      .reverse().map(toView);
  }

  private async own(id: string, auth: Auth) {
    const entry = await this.repo.get(id);
    if (!entry.value) throw notFound("task_not_found");
    if (auth.type !== "admin" && entry.value.created_by !== creatorOf(auth)) throw forbidden();
    return entry as Deno.KvEntry<TaskRecord>;
  }

  /** One task. */
  async get(id: string, auth: Auth): Promise<TaskView> {
    return toView((await this.own(id, auth)).value);
  }

  /** Cancels a pending or running task (the runner stops before its next file). */
  async cancel(id: string, auth: Auth): Promise<TaskView> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const entry = await this.own(id, auth);
      const rec = entry.value;
      if (rec.status !== "pending" && rec.status !== "running") return toView(rec);
      const next = { ...rec, status: "cancelled" as const, updated_at: new Date().toISOString() };
      if (await this.repo.update(next, entry.versionstamp)) return toView(next);
    }
    throw new AppError("conflict", 409);
  }

  /** Runs a failed or cancelled task again from the start, skipping files already there. */
  async retry(id: string, auth: Auth): Promise<TaskView> {
    const entry = await this.own(id, auth);
    const rec = entry.value;
    if (rec.status !== "failed" && rec.status !== "cancelled") {
      throw badRequest("task_not_retryable");
    }
    const next: TaskRecord = {
      ...rec,
      status: "pending",
      skip_existing: true,
      next_item: 0,
      last_key: null,
      total_counted: rec.type !== "copy",
      total: rec.type === "copy" ? rec.total : rec.items.length,
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      current_file: null,
      error: null,
      errors: [],
      completed_at: null,
      updated_at: new Date().toISOString(),
    };
    if (!await this.repo.update(next, entry.versionstamp)) throw new AppError("conflict", 409);
    this.kick();
    return toView(next);
  }

  /** Removes the caller's finished tasks (completed, failed, cancelled). */
  async clearFinished(auth: Auth): Promise<{ cleared: number }> {
    let cleared = 0;
    for (const t of await this.list(auth)) {
      if (t.status === "completed" || t.status === "failed" || t.status === "cancelled") {
        await this.repo.delete(t.id);
        cleared++;
      }
    }
    return { cleared };
  }

  /** Starts polling for runnable tasks (resumes tasks left over from a previous process). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.kick();
  }

  /** Stops polling; tasks in flight finish their current file and keep their state. */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Looks for work now. */
  kick(): void {
    this.poll().catch((err) => console.error("task runner failed:", err));
  }

  private async poll(): Promise<void> {
    for (const t of await this.repo.list()) {
      if (this.running.has(t.id) || (t.status !== "pending" && t.status !== "running")) continue;
      if (!await this.repo.lease(t.id, this.owner, LEASE_MS)) continue;
      this.running.add(t.id);
      this.run(t.id).catch((err) => console.error(`task ${t.id} failed:`, err))
        .finally(() => {
          this.running.delete(t.id);
          this.repo.release(t.id).catch(() => {});
        });
    }
  }

  /** Rebuilds the creator's Auth; a deleted or expired key fails the task. */
  private async actorAuth(rec: TaskRecord): Promise<Auth> {
    if (rec.actor.type === "admin") {
      return {
        type: "admin",
        id: "admin",
        username: "admin",
        tokenHash: "",
        permissions: ALL_PERMISSIONS,
        basicPath: "/",
      };
    }
    const key = await this.apiKeys.getRecord(rec.actor.id);
    if (!key) throw new AppError("api_key_invalid", 401);
    return {
      type: "apikey",
      id: key.id,
      key,
      permissions: key.permissions,
      basicPath: key.basic_path,
    };
  }

  private async run(id: string): Promise<void> {
    let entry = await this.repo.get(id) as Deno.KvEntry<TaskRecord>;
    if (!entry.value) return;
    const save = async (patch: Partial<TaskRecord>): Promise<boolean> => {
      const next = { ...entry.value, ...patch, updated_at: new Date().toISOString() };
      if (!await this.repo.update(next, entry.versionstamp)) return false;
      entry = await this.repo.get(id) as Deno.KvEntry<TaskRecord>;
      await this.repo.lease(id, this.owner, LEASE_MS);
      return true;
    };
    if (!await save({ status: "running" })) return;
    let auth: Auth;
    try {
      auth = await this.actorAuth(entry.value);
    } catch (err) {
      await save({ status: "failed", error: err instanceof AppError ? err.code : String(err) });
      return;
    }
    if (!entry.value.total_counted) {
      let total = 0;
      for (const item of entry.value.items) total += await this.countFiles(item, auth);
      if (!await save({ total, total_counted: true })) return;
    }
    while (entry.value.next_item < entry.value.items.length) {
      const item = entry.value.items[entry.value.next_item];
      const ok = entry.value.type === "copy"
        ? await this.copyItem(item, auth, () => entry.value, save)
        : await this.stepItem(entry.value.type, item, auth, () => entry.value, save);
      if (!ok) return; // cancelled or changed under us
      if (!await save({ next_item: entry.value.next_item + 1, last_key: null })) return;
    }
    const rec = entry.value;
    await save({
      status: rec.failed_count > 0 && rec.success_count === 0 && rec.skipped_count === 0
        ? "failed"
        : "completed",
      current_file: null,
      completed_at: new Date().toISOString(),
    });
  }

  /** Runs one delete or download item; false when the task was cancelled or changed. */
  private async stepItem(
    type: TaskRecord["type"],
    item: TaskItem,
    auth: Auth,
    current: () => TaskRecord,
    save: (patch: Partial<TaskRecord>) => Promise<boolean>,
  ): Promise<boolean> {
    if ((await this.repo.get(current().id)).value?.status === "cancelled") return false;
    if (!await save({ current_file: item.sourcePath })) return false;
    try {
      if (!this.steps) throw new AppError("internal", 500);
      if (type === "delete") await deleteItem(this.steps, item, auth);
      else await downloadItem(this.steps, item, auth);
      return await save({ success_count: current().success_count + 1 });
    } catch (err) {
      return await this.record(current(), save, item.sourcePath, err);
    }
  }

  /** How many files an item stands for (1 for a file or a missing path, the files of a folder). */
  private async countFiles(item: TaskItem, auth: Auth): Promise<number> {
    try {
      const from = await this.mounts.resolve(item.sourcePath, auth);
      const src = await this.storage.mountDriverFor(
        await this.storage.getRecord(from.mount.storage_config_id),
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
  private async copyItem(
    item: TaskItem,
    auth: Auth,
    current: () => TaskRecord,
    save: (patch: Partial<TaskRecord>) => Promise<boolean>,
  ): Promise<boolean> {
    let from: Resolved, to: Resolved;
    try {
      from = await this.mounts.resolve(item.sourcePath, auth);
      to = await this.mounts.resolve(item.targetPath, auth);
    } catch (err) {
      return await this.record(current(), save, item.sourcePath, err);
    }
    const src = await this.storage.mountDriverFor(
      await this.storage.getRecord(from.mount.storage_config_id),
    );
    const dst = await this.storage.mountDriverFor(
      await this.storage.getRecord(to.mount.storage_config_id),
    );
    const sameStorage = from.mount.storage_config_id === to.mount.storage_config_id;
    const copyOne = async (fromKey: string, toKey: string, label: string): Promise<boolean> => {
      if ((await this.repo.get(current().id)).value?.status === "cancelled") return false;
      if (!await save({ current_file: label })) return false;
      try {
        if (current().skip_existing && await dst.head(toKey)) {
          return await save({ skipped_count: current().skipped_count + 1, last_key: fromKey });
        }
        if (sameStorage) await src.copy(fromKey, toKey);
        else {
          const obj = await src.get(fromKey);
          await dst.put(toKey, obj.body, { size: obj.size, contentType: obj.contentType });
        }
        await this.search?.pathWritten({ mount: to.mount, key: toKey });
        return await save({ success_count: current().success_count + 1, last_key: fromKey });
      } catch (err) {
        return await this.record(current(), save, label, err, fromKey);
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
        return await this.record(current(), save, from.path, notFound("file_not_found"));
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

  private async record(
    rec: TaskRecord,
    save: (patch: Partial<TaskRecord>) => Promise<boolean>,
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
}
