/**
 * The background runner of explorer tasks: polls KV for runnable tasks, leases one, and runs
 * its items one by one, saving the record after every file so a restart resumes it.
 *
 * With several instances, a task runs on exactly one: the lease in KV (task_repo.ts) is taken
 * with a checked commit and renewed on a heartbeat (every third of LEASE_MS) for as long as the
 * task runs, however long one file takes. When an instance dies, its lease lapses and another
 * instance resumes the task within LEASE_MS plus one poll. A runner that cannot renew (the KV
 * unreachable, or another owner) stops before its lease could lapse: it aborts the file under
 * way and saves nothing more, so two instances never work on one task at once.
 */
import type { TaskItem, TaskRecord, TaskRepo } from "./task_repo.ts";
import type { MountService } from "../services/mounts.ts";
import type { StorageConfigService } from "../services/storage_configs.ts";
import type { ApiKeyService } from "../services/api_keys.ts";
import type { SearchHooks } from "../search/search_types.ts";
import { deleteItem, downloadItem, type TaskStepDeps } from "./task_steps.ts";
import { type CopyDeps, copyItem, countFiles, recordFailure, type TaskSave } from "./task_copy.ts";
import { adminAuth, type Auth, keyAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";

const LEASE_MS = 15_000;
const POLL_MS = 1_000;
/** A runner gives up its task when renewals failed for this long (well inside LEASE_MS). */
const GIVE_UP_MS = LEASE_MS * 2 / 3;

/** Runs queued tasks in the background (TaskService starts and stops it). */
export class TaskRunner {
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
          this.repo.release(t.id, this.owner).catch(() => {});
        });
    }
  }

  private copyDeps(): CopyDeps {
    return { repo: this.repo, mounts: this.mounts, storage: this.storage, search: this.search };
  }

  /** Rebuilds the creator's Auth; a deleted or expired key fails the task. */
  private async actorAuth(rec: TaskRecord): Promise<Auth> {
    if (rec.actor.type === "admin") return adminAuth();
    const key = await this.apiKeys.getRecord(rec.actor.id);
    if (!key) throw new AppError("api_key_invalid", 401);
    return keyAuth(key);
  }

  /**
   * Renews the lease of task `id` every third of LEASE_MS until `stop()`. The signal aborts when
   * another owner holds it, or when renewals kept failing for GIVE_UP_MS. A timer callback, so
   * every failure is caught here.
   */
  private holdLease(id: string): { signal: AbortSignal; stop: () => void } {
    const lost = new AbortController();
    let renewedAt = Date.now();
    const renew = () => {
      this.repo.lease(id, this.owner, LEASE_MS).then((held) => {
        if (held) renewedAt = Date.now();
        else lost.abort(new Error(`task ${id}: another instance holds the lease`));
      }).catch((err) => {
        if (Date.now() - renewedAt < GIVE_UP_MS) return;
        lost.abort(new Error(`task ${id}: the lease could not be renewed: ${err}`));
      });
    };
    const timer = setInterval(renew, LEASE_MS / 3);
    return { signal: lost.signal, stop: () => clearInterval(timer) };
  }

  private async run(id: string): Promise<void> {
    const lease = this.holdLease(id);
    try {
      await this.runHeld(id, lease.signal);
    } finally {
      lease.stop();
    }
  }

  private async runHeld(id: string, signal: AbortSignal): Promise<void> {
    let entry = await this.repo.get(id) as Deno.KvEntry<TaskRecord>;
    if (!entry.value) return;
    const save = async (patch: Partial<TaskRecord>): Promise<boolean> => {
      if (signal.aborted) return false; // the lease is gone: another instance may run it now
      const next = { ...entry.value, ...patch, updated_at: new Date().toISOString() };
      if (!await this.repo.update(next, entry.versionstamp)) return false;
      entry = await this.repo.get(id) as Deno.KvEntry<TaskRecord>;
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
      for (const item of entry.value.items) {
        total += await countFiles(this.storage, this.mounts, item, auth);
      }
      if (!await save({ total, total_counted: true })) return;
    }
    while (entry.value.next_item < entry.value.items.length) {
      const item = entry.value.items[entry.value.next_item];
      const ok = entry.value.type === "copy"
        ? await copyItem({ ...this.copyDeps(), signal }, item, auth, () => entry.value, save)
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
    save: TaskSave,
  ): Promise<boolean> {
    if ((await this.repo.get(current().id)).value?.status === "cancelled") return false;
    if (!await save({ current_file: item.sourcePath })) return false;
    try {
      if (!this.steps) throw new AppError("internal", 500);
      if (type === "delete") await deleteItem(this.steps, item, auth);
      else await downloadItem(this.steps, item, auth);
      return await save({ success_count: current().success_count + 1 });
    } catch (err) {
      return await recordFailure(current(), save, item.sourcePath, err);
    }
  }
}
