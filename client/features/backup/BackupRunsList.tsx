/** The runs of the backup schedule: when, how it went, its file and its check, newest first. */
import { useTranslation } from "react-i18next";
import { formatBytes } from "../../lib/format.ts";
import type { BackupRun } from "./backup_schedule_api.ts";

/** The text of a run's failure in the UI language (its code), else the server's English. */
export function useRunError() {
  const { t } = useTranslation();
  return (run: BackupRun): string | null => {
    if (!run.error) return null;
    const key = `errors.${run.error.code}`;
    const text = t(key, run.error.params ?? {});
    return text !== key && !text.includes("{{") ? text : run.error.message;
  };
}

export function BackupRunsList({ runs }: { runs: BackupRun[] }) {
  const { t, i18n } = useTranslation();
  const errorOf = useRunError();
  if (runs.length === 0) return <p className="muted">{t("backup.schedule.noRuns")}</p>;
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" })
      .format(new Date(iso));
  return (
    <ul className="backup-runs" aria-label={t("backup.schedule.runs")}>
      {runs.map((run) => (
        <li key={run.slot} className={`inset-box backup-run backup-run-${run.status}`}>
          <div className="backup-run-head">
            <strong>{when(run.started_at)}</strong>
            <span className="muted">{t(`backup.schedule.trigger.${run.trigger}`)}</span>
            <span
              className={`badge ${
                run.status === "succeeded"
                  ? "badge-success"
                  : run.status === "failed"
                  ? "badge-danger"
                  : ""
              }`}
            >
              {t(`backup.schedule.status.${run.status}`)}
            </span>
          </div>
          {run.file && (
            <p className="muted backup-run-file">
              <code>{run.file}</code>
              {run.size !== null && ` · ${formatBytes(run.size)}`}
              {run.pruned && ` · ${t("backup.schedule.pruned")}`}
            </p>
          )}
          {run.verified === true && (
            <p className="backup-run-check">{t("backup.schedule.verified")}</p>
          )}
          {run.error && <p className="field-error">{errorOf(run)}</p>}
        </li>
      ))}
    </ul>
  );
}
