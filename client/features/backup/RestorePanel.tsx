/**
 * Restoring a backup: choose a file, see what it holds (checked by the server, nothing is
 * changed yet), choose overwrite or merge (overwrite asks for confirmation), then see the
 * per-module results. While a restore runs, its progress is read from the restore journal.
 */
import { type ChangeEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { ConfirmDialog } from "../../components/Modal.tsx";
import { clearAuth } from "../../auth/auth_store.ts";
import { paths } from "../../../shared/app_paths.ts";
import {
  type BackupInfo,
  getRestoreStatus,
  restoreBackup,
  type RestoreMode,
  type RestoreReport,
  type RestoreStatus,
  validateBackup,
} from "./backup_api.ts";
import { BackupInfoView, RestoreReportView } from "./RestoreResults.tsx";
import { CheckLabel, FormField } from "../../components/FormField.tsx";

const MODES: RestoreMode[] = ["overwrite", "merge"];

export function RestorePanel() {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [info, setInfo] = useState<BackupInfo | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<RestoreMode>("merge");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<RestoreStatus | null>(null);
  const [report, setReport] = useState<RestoreReport | null>(null);

  // Poll the journal while a restore runs, for a progress line.
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      getRestoreStatus().then(setProgress, () => {});
    }, 1000);
    return () => clearInterval(timer);
  }, [busy]);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0] ?? null;
    setFile(chosen);
    setInfo(null);
    setReport(null);
    setError(null);
    if (!chosen) return;
    setChecking(true);
    try {
      setInfo(await validateBackup(chosen));
    } catch (err) {
      setError(errorText(t, err, "backup_invalid_file"));
    } finally {
      setChecking(false);
    }
  };

  const run = async () => {
    if (!file || !info) return;
    setConfirming(false);
    setBusy(true);
    setError(null);
    setReport(null);
    setProgress(null);
    try {
      const result = await restoreBackup(file, mode);
      setReport(result);
      toast.success(t("backup.restore.done"));
    } catch (err) {
      setError(errorText(t, err, "restore_failed"));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = () => {
    if (!file) {
      setError(t("errors.backup_file_required"));
      return;
    }
    if (mode === "overwrite") setConfirming(true);
    else void run();
  };

  const phase = progress?.restoring && progress.phase ? progress.phase : null;

  return (
    <section className="card backup-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("backup.restore.title")}</h2>
      <p className="muted">{t("backup.restore.description")}</p>
      <div className="form">
        <FormField
          id={`${id}-file`}
          label={t("backup.restore.file")}
          hint={t("backup.restore.fileHint")}
        >
          {(a) => (
            <input
              {...a}
              className="input"
              type="file"
              accept=".json,application/json"
              disabled={busy}
              onChange={(e) => void onFile(e)}
            />
          )}
        </FormField>
        {checking && <p role="status" className="muted">{t("backup.restore.checking")}</p>}
        {info && file && <BackupInfoView info={info} filename={file.name} />}
        {info && (
          <fieldset className="fieldset">
            <legend>{t("backup.restore.modeLegend")}</legend>
            {MODES.map((m) => (
              <div key={m} className="backup-mode">
                <CheckLabel
                  type="radio"
                  name={`${id}-mode`}
                  value={m}
                  label={t(`backup.restore.modes.${m}.label`)}
                  checked={mode === m}
                  aria-describedby={`${id}-${m}`}
                  onChange={() => setMode(m)}
                />
                <p id={`${id}-${m}`} className="field-hint">
                  {t(`backup.restore.modes.${m}.description`)}
                </p>
              </div>
            ))}
          </fieldset>
        )}
        {error && <p className="form-error" role="alert">{error}</p>}
        <div>
          <button
            type="button"
            className={`btn ${mode === "overwrite" ? "btn-danger" : "btn-primary"}`}
            disabled={!info || busy || checking}
            onClick={onSubmit}
          >
            {busy ? t("backup.restore.restoring") : t("backup.restore.submit")}
          </button>
        </div>
        {busy && (
          <p role="status" className="muted backup-progress">
            {phase
              ? t(`backup.restore.phases.${phase}`, {
                done: progress!.done,
                total: progress!.total,
              })
              : t("backup.restore.uploading")}
          </p>
        )}
        {report && <RestoreReportView report={report} />}
        {report?.sessions_revoked && (
          <div className="alert alert-warning" role="alert">
            <span>{t("backup.restore.sessionsRevoked")}</span>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => {
                clearAuth();
                navigate(paths.login);
              }}
            >
              {t("backup.restore.loginAgain")}
            </button>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t("backup.restore.confirm.title")}
        message={t("backup.restore.confirm.message", {
          modules: info?.modules.map((m) => t(`backup.modules.${m}.label`)).join(", ") ?? "",
        })}
        confirmLabel={t("backup.restore.confirm.submit")}
        danger
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
