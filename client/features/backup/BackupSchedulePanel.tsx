/**
 * Scheduled backups on the backup page: daily or weekly at a time (in the admin's time zone),
 * the modules, the storage config they are written to (under `.cubby-backups/`) and how many
 * are kept; "Run now"; and the latest runs with their checks. A failed run also shows on the
 * dashboard (BackupAlert).
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import { splitRefusal } from "../../api/field_errors.ts";
import { toast } from "../../components/toast.ts";
import { CheckField, CheckLabel, InputField, SelectField } from "../../components/FormField.tsx";
import { FormAlert } from "../../components/FormAlert.tsx";
import { RetryAlert } from "../../components/RetryAlert.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { listStorageConfigs, type StorageConfigView } from "../storage/storage_api.ts";
import { configLabels } from "../storage/config_labels.ts";
import { BACKUP_MODULES, type BackupModule } from "./backup_modules.ts";
import {
  type BackupRun,
  type BackupSchedule,
  getBackupSchedule,
  listBackupRuns,
  runBackupNow,
  saveBackupSchedule,
} from "./backup_schedule_api.ts";
import { BackupRunsList } from "./BackupRunsList.tsx";

type Field = "time" | "timezone" | "modules" | "storage_config_id" | "keep";
const FIELDS: Field[] = ["time", "timezone", "modules", "storage_config_id", "keep"];

/** A new schedule: daily at 03:00 in the browser's time zone, every module, keep 7. */
function defaults(configs: StorageConfigView[]): BackupSchedule {
  return {
    enabled: true,
    frequency: "daily",
    weekday: 1,
    time: "03:00",
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    modules: [...BACKUP_MODULES],
    storage_config_id: (configs.find((c) => c.is_default) ?? configs[0])?.id ?? "",
    keep: 7,
  };
}

export function BackupSchedulePanel() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [configs, setConfigs] = useState<StorageConfigView[] | null>(null);
  const [values, setValues] = useState<BackupSchedule | null>(null);
  const [nextRun, setNextRun] = useState<string | null>(null);
  const [runs, setRuns] = useState<BackupRun[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "run" | null>(null);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const [view, list, cfgs] = await Promise.all([
        getBackupSchedule(),
        listBackupRuns(),
        listStorageConfigs(),
      ]);
      setConfigs(cfgs);
      setValues(view.schedule ?? defaults(cfgs));
      setNextRun(view.next_run);
      setRuns(list);
    } catch (err) {
      setLoadError(errorText(t, err));
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);

  const set = <K extends keyof BackupSchedule>(key: K, value: BackupSchedule[K]) => {
    setValues((v) => v && { ...v, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!values) return;
    setErrors({});
    setFormError(null);
    if (values.modules.length === 0) {
      setErrors({ modules: t("errors.backup_no_modules") });
      return;
    }
    setBusy("save");
    try {
      const view = await saveBackupSchedule(values);
      setNextRun(view.next_run);
      toast.success(t("backup.schedule.saved"));
    } catch (err) {
      const refusal = splitRefusal<Field>(t, err, {
        fields: Object.fromEntries(FIELDS.map((f) => [f, f])),
        codes: { storage_config_not_found: "storage_config_id" },
      });
      setErrors(refusal.fields);
      setFormError(refusal.form);
    } finally {
      setBusy(null);
    }
  };

  const runNow = async () => {
    setBusy("run");
    try {
      const run = await runBackupNow();
      toast[run.status === "succeeded" ? "success" : "error"](
        t(`backup.schedule.ran.${run.status === "succeeded" ? "ok" : "failed"}`),
      );
      setRuns(await listBackupRuns());
    } catch (err) {
      toast.error(errorText(t, err, "backup_failed"));
    } finally {
      setBusy(null);
    }
  };

  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, {
      dateStyle: "full",
      timeStyle: "short",
      timeZone: values?.timezone,
    }).format(new Date(iso));
  const labels = configLabels(configs ?? []);
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((d) =>
    new Intl.DateTimeFormat(i18n.language, { weekday: "long", timeZone: "UTC" })
      .format(new Date(Date.UTC(2023, 0, 1 + d)))
  );

  return (
    <section className="card backup-panel backup-schedule" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("backup.schedule.title")}</h2>
      <p className="muted">{t("backup.schedule.description")}</p>
      {loadError && <RetryAlert message={loadError} onRetry={() => void load()} />}
      {!values && !loadError && <Spinner />}
      {values && (
        <form className="form" onSubmit={(e) => void save(e)} noValidate>
          <FormAlert text={formError} />
          <CheckField
            id={`${id}-enabled`}
            label={t("backup.schedule.enabled")}
            checked={values.enabled}
            onChange={(v) => set("enabled", v)}
          />
          <div className="field-row">
            <SelectField
              id={`${id}-frequency`}
              label={t("backup.schedule.frequency")}
              value={values.frequency}
              onChange={(v) => set("frequency", v as "daily" | "weekly")}
            >
              <option value="daily">{t("backup.schedule.daily")}</option>
              <option value="weekly">{t("backup.schedule.weekly")}</option>
            </SelectField>
            {values.frequency === "weekly" && (
              <SelectField
                id={`${id}-weekday`}
                label={t("backup.schedule.weekday")}
                value={values.weekday}
                onChange={(v) => set("weekday", Number(v))}
              >
                {weekdays.map((name, d) => <option key={d} value={d}>{name}</option>)}
              </SelectField>
            )}
            <InputField
              id={`${id}-time`}
              label={t("backup.schedule.time")}
              type="time"
              value={values.time}
              onChange={(v) => set("time", v)}
              error={errors.time}
            />
          </div>
          <InputField
            id={`${id}-timezone`}
            label={t("backup.schedule.timezone")}
            hint={t("backup.schedule.timezoneHint")}
            value={values.timezone}
            spellCheck={false}
            onChange={(v) => set("timezone", v)}
            error={errors.timezone}
            errorLast
          />
          <fieldset className="fieldset" aria-invalid={errors.modules ? true : undefined}>
            <legend>{t("backup.schedule.modules")}</legend>
            <div className="backup-schedule-modules">
              {BACKUP_MODULES.map((m: BackupModule) => (
                <CheckLabel
                  key={m}
                  label={t(`backup.modules.${m}.label`)}
                  checked={values.modules.includes(m)}
                  onChange={(on) =>
                    set(
                      "modules",
                      on
                        ? BACKUP_MODULES.filter((x) => x === m || values.modules.includes(x))
                        : values.modules.filter((x) => x !== m),
                    )}
                />
              ))}
            </div>
            {errors.modules && <p className="field-error" role="alert">{errors.modules}</p>}
          </fieldset>
          <div className="field-row">
            <SelectField
              id={`${id}-storage`}
              label={t("backup.schedule.storage")}
              hint={t("backup.schedule.storageHint")}
              error={errors.storage_config_id}
              errorLast
              value={values.storage_config_id}
              onChange={(v) => set("storage_config_id", v)}
            >
              {(configs ?? []).map((c) => (
                <option key={c.id} value={c.id}>{labels.get(c.id) ?? c.name}</option>
              ))}
            </SelectField>
            <InputField
              id={`${id}-keep`}
              label={t("backup.schedule.keep")}
              whole
              min={1}
              max={365}
              value={String(values.keep)}
              onChange={(v) => set("keep", Number(v))}
              error={errors.keep}
            />
          </div>
          <p className="muted" aria-live="polite">
            {nextRun
              ? t("backup.schedule.nextRun", { time: when(nextRun) })
              : t("backup.schedule.off")}
          </p>
          <div className="page-actions">
            <button type="submit" className="btn btn-primary" disabled={busy !== null}>
              {busy === "save" ? t("backup.schedule.saving") : t("backup.schedule.save")}
            </button>
            <button
              type="button"
              className="btn"
              disabled={busy !== null}
              aria-busy={busy === "run" || undefined}
              onClick={() => void runNow()}
            >
              {busy === "run" ? t("backup.schedule.running") : t("backup.schedule.runNow")}
            </button>
          </div>
        </form>
      )}
      <h3>{t("backup.schedule.runs")}</h3>
      <BackupRunsList runs={runs} />
    </section>
  );
}
