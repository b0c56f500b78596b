/** Waiting for explorer tasks run by services directly (not through the HTTP API). */
import { keys } from "../../server/kv/keys.ts";
import type { TaskRecord } from "../../server/fs/task_repo.ts";

/**
 * Watches task `id` in KV until it has completed, failed or been cancelled and its runner has
 * let go of its lease (so the runner is done with the KV); returns the task.
 */
export async function taskSettled(kv: Deno.Kv, id: string): Promise<TaskRecord> {
  const watched = kv.watch<[TaskRecord, unknown]>([keys.tasks(id), keys.taskLeases(id)]);
  for await (const [task, lease] of watched) {
    const status = task.value?.status;
    const finished = status === "completed" || status === "failed" || status === "cancelled";
    if (finished && lease.value === null) return task.value!;
  }
  throw new Error(`the watch of task ${id} ended`);
}
