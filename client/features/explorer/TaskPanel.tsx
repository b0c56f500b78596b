/**
 * The task manager (docs/PRODUCT.md §2.3, §3.10, §4.2): each task's type, state (partial-complete
 * when it finished with failures), progress, current file and counts, with cancel, retry and
 * clearing of finished tasks.
 */
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { cancelTask, clearTasks, retryTask, type TaskView } from "./explorer_api.ts";
import { displayStatus, isActiveTask } from "./use_tasks.ts";
import { SmallButtons } from "../../components/ListTable.tsx";
import { useBusyAction } from "../../components/use_admin_list.ts";

const BADGE: Record<string, string> = {
  pending: "badge",
  running: "badge badge-primary",
  completed: "badge badge-success",
  partial: "badge badge-warning",
  failed: "badge badge-danger",
  cancelled: "badge",
};

function TaskRow({ task, onChanged }: { task: TaskView; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const { busy, run } = useBusyAction();
  const status = displayStatus(task);
  const act = (fn: (id: string) => Promise<unknown>) =>
    run(async () => {
      await fn(task.id);
      onChanged();
    });
  const label = t(`explorer.tasks.type.${task.type}`);
  return (
    <li className={`task-row task-${status}`}>
      <div className="task-head">
        <span className="task-type">{label}</span>
        <span className={BADGE[status]}>{t(`explorer.tasks.status.${status}`)}</span>
        <span className="muted task-time">
          {formatDateTime(task.completed_at ?? task.created_at, i18n.language)}
        </span>
      </div>
      <progress
        className="upload-progress"
        max={100}
        value={task.progress}
        aria-label={t("explorer.tasks.progress", { type: label })}
      />
      <p className="muted task-counts">
        {t("explorer.tasks.counts", {
          progress: task.progress,
          success: task.success_count,
          failed: task.failed_count,
          skipped: task.skipped_count,
          total: task.total,
        })}
      </p>
      {task.current_file && isActiveTask(task) && (
        <p className="muted task-current">
          {t("explorer.tasks.current", { file: task.current_file })}
        </p>
      )}
      {task.error && <p className="field-error">{t("errors." + task.error, task.error)}</p>}
      {task.errors.length > 0 && (
        <details className="task-errors">
          <summary>{t("explorer.tasks.errors", { n: task.errors.length })}</summary>
          <ul>
            {task.errors.map((e, i) => (
              <li key={i}>
                <code>{e.path}</code>: {t("errors." + e.error, e.error)}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="task-actions">
        <SmallButtons
          actions={[
            {
              key: "cancel",
              label: t("explorer.tasks.cancel"),
              onClick: () => void act(cancelTask),
              disabled: busy,
              hidden: !isActiveTask(task),
            },
            {
              key: "retry",
              label: t("explorer.tasks.retry"),
              onClick: () => void act(retryTask),
              disabled: busy,
              hidden: task.status !== "failed" && task.status !== "cancelled",
            },
          ]}
        />
      </div>
    </li>
  );
}

export function TaskPanel(
  { tasks, error, onChanged }: { tasks: TaskView[] | null; error: unknown; onChanged: () => void },
) {
  const { t } = useTranslation();
  const { busy: clearing, run } = useBusyAction();
  const finished = (tasks ?? []).filter((x) => !isActiveTask(x)).length;
  const clear = () =>
    run(async () => {
      await clearTasks();
      onChanged();
    });
  return (
    <section className="explorer-panel task-panel" aria-label={t("explorer.tasks.title")}>
      <header className="explorer-panel-head">
        <h2 className="explorer-panel-title">{t("explorer.tasks.title")}</h2>
        {finished > 0 && (
          <button
            type="button"
            className="btn btn-small"
            disabled={clearing}
            onClick={() => void clear()}
          >
            {t("explorer.tasks.clear")}
          </button>
        )}
      </header>
      {error !== null && tasks === null && (
        <p className="alert alert-error" role="alert">{errorText(t, error)}</p>
      )}
      {tasks === null && error === null && <Spinner />}
      {tasks !== null && tasks.length === 0 && <p className="muted">{t("explorer.tasks.empty")}</p>}
      {tasks !== null && tasks.length > 0 && (
        <ul className="task-list">
          {tasks.map((task) => <TaskRow key={task.id} task={task} onChanged={onChanged} />)}
        </ul>
      )}
    </section>
  );
}
