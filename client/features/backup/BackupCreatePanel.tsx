/**
 * Creating a backup: module checkboxes with "select all", dependencies added (and shown)
 * automatically, and a download of the JSON file.
 */
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import { toast } from "../../components/toast.ts";
import { downloadBackup, saveFile } from "./backup_api.ts";
import {
  BACKUP_MODULES,
  type BackupModule,
  effectiveModules,
  requiredBy,
  selectionState,
  toggleModule,
} from "./backup_modules.ts";
import { CheckLabel, SelectAllCheck } from "../../components/FormField.tsx";

export function BackupCreatePanel() {
  const { t } = useTranslation();
  const id = useId();
  const [chosen, setChosen] = useState<Set<BackupModule>>(() => new Set(BACKUP_MODULES));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const label = (m: BackupModule) => t(`backup.modules.${m}.label`);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (chosen.size === 0) {
      setError(t("errors.backup_no_modules"));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const { blob, filename } = await downloadBackup(effectiveModules(chosen));
      saveFile(blob, filename);
      toast.success(t("backup.create.downloaded", { filename }));
    } catch (err) {
      setError(errorText(t, err, "backup_failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card backup-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("backup.create.title")}</h2>
      <p className="muted">{t("backup.create.description")}</p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <fieldset
          className="fieldset"
          aria-invalid={error !== null && chosen.size === 0}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <legend>{t("backup.create.modulesLegend")}</legend>
          <SelectAllCheck
            label={t("backup.create.selectAll")}
            state={selectionState(chosen)}
            onChange={(all) => setChosen(all ? new Set(BACKUP_MODULES) : new Set())}
          />
          <ul className="backup-modules">
            {BACKUP_MODULES.map((m) => {
              const needs = requiredBy(chosen, m);
              const auto = needs.length > 0;
              return (
                <li key={m} className="backup-module">
                  <div className="backup-module-head">
                    <CheckLabel
                      name="modules"
                      value={m}
                      label={label(m)}
                      checked={chosen.has(m) || auto}
                      disabled={auto}
                      aria-describedby={`${id}-${m}`}
                      onChange={() => setChosen((c) => toggleModule(c, m))}
                    />
                    {auto && <span className="badge badge-primary">{t("backup.create.auto")}</span>}
                  </div>
                  <p id={`${id}-${m}`} className="field-hint">
                    {auto
                      ? t("backup.create.requiredBy", { modules: needs.map(label).join(", ") })
                      : t(`backup.modules.${m}.description`)}
                  </p>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <ul className="backup-notes">
          <li>{t("backup.create.filesNote")}</li>
          <li>{t("backup.create.secretsNote")}</li>
        </ul>
        {error && <p id={`${id}-error`} className="form-error" role="alert">{error}</p>}
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t("backup.create.downloading") : t("backup.create.download")}
          </button>
        </div>
      </form>
    </section>
  );
}
