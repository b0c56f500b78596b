/**
 * Tasks of the mount explorer (copy, delete, offline download): queueing, listing, cancelling
 * and retrying them. They run in the background from records in KV (task_runner.ts); the
 * record is updated after every file (progress, counts, resume point), so a task survives a
 * restart: its lease lapses and the next runner continues from `next_item` / `last_key`.
 */
import { ulid } from "../lib/ulid.ts";
import type { TaskItem, TaskRecord, TaskRepo } from "./task_repo.ts";
import type { CopyConflict } from "./fs_conflicts.ts";
import type { MountService } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { ApiKeyService } from "../services/api_keys.ts";
import type { SearchHooks } from "../search/search_types.ts";
import type { TaskStepDeps } from "./task_steps.ts";
import { TaskRunner } from "./task_runner.ts";
import { type Auth, creatorOf } from "../services/auth.ts";
import { AppError, badRequest, forbidden, notFound } from "../errors.ts";
import type { TaskView } from "../../shared/schemas/tasks.ts";

const MAX_RECORD_BYTES = 60_000;

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

/** Queues and manages explorer tasks; start() runs them in the background. */
/** The progress fields of a run that has not started: copies count their files as they go. */
function freshRun(type: TaskRecord["type"], total: number) {
  return {
    next_item: 0,
    last_key: null,
    total,
    total_counted: type !== "copy",
    success_count: 0,
    failed_count: 0,
    skipped_count: 0,
    current_file: null,
    error: null,
    errors: [],
    completed_at: null,
  } satisfies Partial<TaskRecord>;
}

export class TaskService {
  private runner: TaskRunner;

  constructor(
    private repo: TaskRepo,
    private mounts: MountService,
    storage: StorageConfigService,
    apiKeys: ApiKeyService,
    /** The search index, told of every file a task writes (search.ts). */
    search?: SearchHooks,
    /** Delete and download items (task_steps.ts); without it only copies run. */
    steps?: TaskStepDeps,
  ) {
    this.runner = new TaskRunner(repo, mounts, storage, apiKeys, search, steps);
  }

  /** Queues a copy of files or folders; checks every path now, and again per file later. */
  async createCopy(items: TaskItem[], onConflict: CopyConflict, auth: Auth): Promise<TaskView> {
    if (auth.type === "none") throw new AppError("unauthorized", 401);
    for (const item of items) {
      const from = await this.mounts.resolve(item.sourcePath, auth);
      const to = await this.mounts.resolve(item.targetPath, auth);
      if (!from.key || !to.key) throw badRequest("storage_path_invalid");
      // Into one of its own subfolders is allowed (the client warns first); the copy then
      // skips the target subtree, so it never copies its own output. Onto itself is refused.
      if (to.path === from.path) throw badRequest("copy_into_itself", { path: from.path });
    }
    return await this.enqueue("copy", items, onConflict, auth);
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
      "overwrite",
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
      "overwrite",
      auth,
    );
  }

  private async enqueue(
    type: TaskRecord["type"],
    items: TaskItem[],
    onConflict: CopyConflict,
    auth: Exclude<Auth, { type: "none" }>,
  ): Promise<TaskView> {
    const now = new Date().toISOString();
    const rec: TaskRecord = {
      id: ulid(),
      type,
      status: "pending",
      items,
      skip_existing: onConflict === "skip",
      on_conflict: onConflict,
      ...freshRun(type, items.length),
      created_at: now,
      updated_at: now,
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
      on_conflict: "skip",
      // A copy keeps its last count until the run counts again.
      ...freshRun(rec.type, rec.type === "copy" ? rec.total : rec.items.length),
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
    this.runner.start();
  }

  /** Stops polling; tasks in flight finish their current file and keep their state. */
  stop(): void {
    this.runner.stop();
  }

  /** Looks for work now. */
  kick(): void {
    this.runner.kick();
  }
}
