/**
 * Background tasks in KV, with a lease per running task: the instance holding it renews it
 * while it works; when a process dies the lease lapses and any instance picks the task up
 * again where its record says it stopped.
 */
import { keys } from "../kv/keys.ts";
import { listValues } from "../kv/list_values.ts";
import type { TaskView } from "../../shared/schemas/tasks.ts";
import type { CopyConflict } from "./fs_conflicts.ts";

export type TaskItem = { sourcePath: string; targetPath: string };

/** A stored task: what the API shows (less the derived `progress`) and the runner's state. */
export type TaskRecord = Omit<TaskView, "progress"> & {
  items: TaskItem[];
  skip_existing: boolean;
  /** A copy's answer to a file already at its target (records before it: skip_existing). */
  on_conflict?: CopyConflict;
  /** Resume point: the item being worked on and, inside a folder, the last key done. */
  next_item: number;
  last_key: string | null;
  /** True once the files of every item were counted (folders expand to their files). */
  total_counted: boolean;
  /** Who the task acts as: its permissions are checked again on every file. */
  actor: { type: "admin" } | { type: "apikey"; id: string };
};

type Lease = { owner: string; until: number };

export class TaskRepo {
  constructor(private kv: Deno.Kv) {}

  get(id: string) {
    return this.kv.get<TaskRecord>(keys.tasks(id));
  }

  /** Every task, oldest first. */
  list(): Promise<TaskRecord[]> {
    return listValues<TaskRecord>(this.kv, keys.tasksPrefix());
  }

  /** Stores a new task. */
  async create(rec: TaskRecord): Promise<void> {
    await this.kv.atomic().check({ key: keys.tasks(rec.id), versionstamp: null })
      .set(keys.tasks(rec.id), rec).commit();
  }

  /** Replaces a task read at `versionstamp`; false when it changed meanwhile (e.g. cancelled). */
  async update(rec: TaskRecord, versionstamp: string): Promise<boolean> {
    return (await this.kv.atomic().check({ key: keys.tasks(rec.id), versionstamp })
      .set(keys.tasks(rec.id), rec).commit()).ok;
  }

  /** Deletes a task and its lease. */
  async delete(id: string): Promise<void> {
    await this.kv.atomic().delete(keys.tasks(id)).delete(keys.taskLeases(id)).commit();
  }

  /** Takes or renews the lease of a task for `ms`; false when another live owner holds it. */
  async lease(id: string, owner: string, ms: number): Promise<boolean> {
    const entry = await this.kv.get<Lease>(keys.taskLeases(id));
    const now = Date.now();
    if (entry.value && entry.value.owner !== owner && entry.value.until > now) return false;
    return (await this.kv.atomic().check(entry)
      .set(keys.taskLeases(id), { owner, until: now + ms }, { expireIn: ms }).commit()).ok;
  }

  /** Gives up `owner`'s lease (a lease another instance took over meanwhile stays). */
  async release(id: string, owner: string): Promise<void> {
    const entry = await this.kv.get<Lease>(keys.taskLeases(id));
    if (entry.value?.owner !== owner) return;
    await this.kv.atomic().check(entry).delete(keys.taskLeases(id)).commit();
  }
}
