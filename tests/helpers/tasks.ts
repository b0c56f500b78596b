/** Waiting for explorer tasks run by services directly (not through the HTTP API). */
import { keys } from "../../server/kv/keys.ts";
import type { TaskRecord } from "../../server/fs/task_repo.ts";

/** Watches task `id`'s KV record until it completes, fails or is cancelled; returns it. */
export async function taskSettled(kv: Deno.Kv, id: string): Promise<TaskRecord> {
  for await (const [entry] of kv.watch<[TaskRecord]>([keys.tasks(id)])) {
    const status = entry.value?.status;
    if (status === "completed" || status === "failed" || status === "cancelled") {
      return entry.value!;
    }
  }
  throw new Error(`the watch of task ${id} ended`);
}
