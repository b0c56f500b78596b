/**
 * The caller's background tasks (docs/PRODUCT.md §3.10, §4.2), polled once a second while
 * any is pending or running (or the panel is open), and otherwise left alone. A task that
 * finishes is reported once, so the explorer can refresh what it changed.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { listTasks, type TaskView } from "./explorer_api.ts";

export const TASK_POLL_MS = 1000;

/** True for the states that still change (pending, running). */
export function isActiveTask(t: TaskView): boolean {
  return t.status === "pending" || t.status === "running";
}

/** The state a task is displayed with: a completed task with failures is "partial". */
export function displayStatus(t: TaskView): TaskView["status"] | "partial" {
  return t.status === "completed" && t.failed_count > 0 ? "partial" : t.status;
}

export function useTasks(
  { watch, onFinished }: { watch: boolean; onFinished: (t: TaskView) => void },
) {
  const [tasks, setTasks] = useState<TaskView[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [kick, setKick] = useState(0);
  const known = useRef(new Map<string, TaskView["status"]>());
  const onFinishedRef = useRef(onFinished);
  onFinishedRef.current = onFinished;

  const active = (tasks ?? []).some(isActiveTask);

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ctrl = new AbortController();
    const poll = async () => {
      try {
        const list = await listTasks(ctrl.signal);
        if (!alive) return;
        for (const t of list) {
          const before = known.current.get(t.id);
          if (before && before !== t.status && !isActiveTask(t)) onFinishedRef.current(t);
          known.current.set(t.id, t.status);
        }
        setTasks(list);
        setError(null);
        if (list.some(isActiveTask) || watch) timer = setTimeout(poll, TASK_POLL_MS);
      } catch (err) {
        if (!alive) return;
        setError(err);
        if (watch) timer = setTimeout(poll, TASK_POLL_MS * 5);
      }
    };
    void poll();
    return () => {
      alive = false;
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [watch, kick, active]);

  /** Polls again now (after starting, cancelling or retrying a task). */
  const refresh = useCallback(() => setKick((k) => k + 1), []);
  /** Records a task just created, so its end is reported even if it finishes between polls. */
  const track = useCallback((id: string, t?: TaskView | null) => {
    known.current.set(id, t?.status ?? "pending");
    if (t) setTasks((list) => (list ? [t, ...list.filter((x) => x.id !== t.id)] : [t]));
    setKick((k) => k + 1);
  }, []);

  return { tasks, error, refresh, track, active };
}
