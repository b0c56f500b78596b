/** What a backup file holds (before a restore) and what a restore did (after it). */
import { useTranslation } from "react-i18next";
import type { BackupInfo, RestoreReport } from "./backup_api.ts";
import { BACKUP_MODULES, type BackupModule } from "./backup_modules.ts";

function formatDate(iso: string | null, lang: string): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(lang);
}

/** The header row of a table of modules: the module, then a number column per heading. */
function ModulesHead({ numbers }: { numbers: string[] }) {
  const { t } = useTranslation();
  return (
    <thead>
      <tr>
        <th scope="col">{t("backup.info.module")}</th>
        {numbers.map((n) => <th key={n} scope="col" className="cell-number">{n}</th>)}
      </tr>
    </thead>
  );
}

/** The metadata of a checked file: format, version, date, type, modules and their counts. */
export function BackupInfoView({ info, filename }: { info: BackupInfo; filename: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="inset-box backup-info" data-testid="backup-info">
      <dl className="details">
        <dt>{t("backup.info.file")}</dt>
        <dd>{filename}</dd>
        <dt>{t("backup.info.format")}</dt>
        <dd>{t(`backup.formats.${info.format}`)}</dd>
        <dt>{t("backup.info.version")}</dt>
        <dd>
          {info.version}
          {info.app_version
            ? ` (${t("backup.info.appVersion", { version: info.app_version })})`
            : ""}
        </dd>
        <dt>{t("backup.info.created")}</dt>
        <dd>{formatDate(info.created_at, i18n.language)}</dd>
        <dt>{t("backup.info.type")}</dt>
        <dd>{t(`backup.types.${info.type === "partial" ? "partial" : "full"}`)}</dd>
        <dt>{t("backup.info.checksum")}</dt>
        <dd>
          <code className="backup-checksum">{info.checksum}</code>
        </dd>
      </dl>
      <table className="table backup-counts">
        <caption className="sr-only">{t("backup.info.modules")}</caption>
        <ModulesHead numbers={[t("backup.info.records")]} />
        <tbody>
          {info.modules.map((m) => (
            <tr key={m}>
              <th scope="row">{t(`backup.modules.${m}.label`)}</th>
              <td className="cell-number">{info.counts[m] ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The per-module outcome of a restore, the records left out and the notes. */
export function RestoreReportView({ report }: { report: RestoreReport }) {
  const { t } = useTranslation();
  const modules = BACKUP_MODULES.filter((m) => report.modules[m]);
  const label = (m: BackupModule) => t(`backup.modules.${m}.label`);
  return (
    <div className="backup-report" data-testid="restore-report">
      <h3>{t("backup.results.title")}</h3>
      <p className="muted">
        {t("backup.results.summary", {
          mode: t(`backup.restore.modes.${report.mode}.label`),
          seconds: (report.duration_ms / 1000).toFixed(1),
        })}
      </p>
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">{t("backup.results.title")}</caption>
          <ModulesHead
            numbers={[
              t("backup.results.restored"),
              t("backup.results.skipped"),
              t("backup.results.removed"),
            ]}
          />
          <tbody>
            {modules.map((m) => (
              <tr key={m} data-module={m}>
                <th scope="row">{label(m)}</th>
                <td className="cell-number">{report.modules[m]!.restored}</td>
                <td className="cell-number">{report.modules[m]!.skipped}</td>
                <td className="cell-number">{report.modules[m]!.removed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.notes.length > 0 && (
        <ul className="backup-notes" aria-label={t("backup.results.notes")}>
          {report.notes.map((n) => (
            <li key={`${n.module}-${n.code}`}>
              <strong>{label(n.module)}:</strong> {t(`backup.notes.${n.code}`, { count: n.count })}
            </li>
          ))}
        </ul>
      )}
      {report.skipped_total > 0 && (
        <details className="backup-skipped">
          <summary>{t("backup.results.skippedList", { count: report.skipped_total })}</summary>
          <ul>
            {report.skipped.map((s, i) => (
              <li key={i}>
                {label(s.module)} · <code>{s.id}</code> · {t(`backup.reasons.${s.reason}`)}
              </li>
            ))}
            {report.skipped_total > report.skipped.length && (
              <li>
                {t("backup.results.moreSkipped", {
                  count: report.skipped_total - report.skipped.length,
                })}
              </li>
            )}
          </ul>
        </details>
      )}
    </div>
  );
}
