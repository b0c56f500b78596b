/**
 * The dashboard's warning when the latest scheduled backup failed: when, why, and a link to the
 * backup page. Nothing shows while backups succeed or none has run.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../shared/app_paths.ts";
import { type BackupRun, listBackupRuns } from "../backup/backup_schedule_api.ts";
import { useRunError } from "../backup/BackupRunsList.tsx";

export function BackupAlert() {
  const { t, i18n } = useTranslation();
  const errorOf = useRunError();
  const [latest, setLatest] = useState<BackupRun | null>(null);
  useEffect(() => {
    let alive = true;
    listBackupRuns(1).then((runs) => alive && setLatest(runs[0] ?? null), () => {});
    return () => {
      alive = false;
    };
  }, []);
  if (latest?.status !== "failed") return null;
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(latest.started_at));
  return (
    <div className="alert alert-error dashboard-backup-alert" role="alert">
      <p>
        <strong>{t("dashboard.backupFailed.title", { time })}</strong> {errorOf(latest)}
      </p>
      <p>
        <Link to={paths.backup}>{t("dashboard.backupFailed.link")}</Link>
      </p>
    </div>
  );
}
