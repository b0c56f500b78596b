/**
 * One labelled settings control, chosen by the setting's type: a number (with its unit, or the
 * paired unit select), a switch, a select, a line of text, or a text area. Label and hint come
 * from the metadata's i18n keys; errors are `errors.<code>` texts.
 */
import type { ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  isFaviconUrl,
  type SettingIssue,
  type SettingMeta,
} from "../../../shared/schemas/settings.ts";
import type { FormValues } from "./settings_form.ts";
import { parseExtensionList } from "../../../shared/preview_types.ts";

export type FieldProps = {
  meta: SettingMeta;
  values: FormValues;
  errors: Record<string, SettingIssue | undefined>;
  onChange: (key: string, value: string | boolean) => void;
  /** The enum setting shown as a select beside this number (max_upload_size → its unit). */
  unit?: SettingMeta;
};

const ROWS: Partial<Record<SettingMeta["type"], number>> = {
  markdown: 5,
  html: 6,
  extensions: 3,
};

/**
 * What an extension list will be saved as, when that differs from what was typed in more
 * than white space (case, dots, duplicates, spaces taken as separators): the list is never
 * tidied silently. Null when the two read the same.
 */
function normalisedList(typed: string): { text: string; count: number } | null {
  const list = parseExtensionList(typed);
  const text = list.join(", ");
  return text.replace(/\s/g, "") === typed.replace(/\s/g, "") ? null : { text, count: list.length };
}

/** The translated text of a field error. */
function useIssueText() {
  const { t } = useTranslation();
  return (issue: SettingIssue | undefined) =>
    issue ? t(`errors.${issue.error}`, issue.params ?? {}) : null;
}

/** The select of an enum setting (also used as the unit beside a number). */
function EnumSelect(
  { meta, value, onChange, id, label, describedBy, invalid }: {
    meta: SettingMeta;
    value: string;
    onChange: (v: string) => void;
    id: string;
    label?: string;
    describedBy?: string;
    invalid?: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <select
      id={id}
      name={meta.key}
      className="input"
      value={value}
      aria-label={label}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value)}
    >
      {meta.options!.map((o) => (
        <option key={o} value={o}>{t(`settings.options.${meta.key}.${o}`)}</option>
      ))}
    </select>
  );
}

export function SettingField({ meta, values, errors, onChange, unit }: FieldProps) {
  const { t } = useTranslation();
  const issueText = useIssueText();
  const id = `setting-${meta.key}`;
  const error = issueText(errors[meta.key]) ?? (unit ? issueText(errors[unit.key]) : null);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const savedAsId = `${id}-saved-as`;
  const value = values[meta.key];
  const savedAs = meta.type === "extensions" && !error ? normalisedList(String(value ?? "")) : null;
  const describedBy = [error ? errorId : "", savedAs ? savedAsId : "", hintId].filter(Boolean)
    .join(" ");
  const invalid = error !== null;
  const label = t(meta.label_key);
  const messages = (
    <>
      {error && <p id={errorId} className="field-error">{error}</p>}
      {savedAs && (
        <p id={savedAsId} className="field-hint field-note" aria-live="polite">
          {t("settings.extensionsSavedAs", { list: savedAs.text, count: savedAs.count })}
        </p>
      )}
      <p id={hintId} className="field-hint">{t(meta.description_key)}</p>
    </>
  );

  if (meta.type === "boolean") {
    return (
      <div className="field settings-field">
        <label className="check check-strong" htmlFor={id}>
          <input
            id={id}
            name={meta.key}
            type="checkbox"
            checked={value === true}
            aria-describedby={describedBy}
            onChange={(e) => onChange(meta.key, e.target.checked)}
          />
          <span>{label}</span>
        </label>
        {messages}
      </div>
    );
  }

  /** What every text control carries: its name and the links to its hint and error. */
  const textAttrs = {
    id,
    name: meta.key,
    "aria-describedby": describedBy,
    "aria-invalid": invalid || undefined,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(meta.key, e.target.value),
  };
  let control;
  if (meta.type === "integer") {
    control = (
      <div className="input-group settings-number">
        <input
          {...textAttrs}
          className="input"
          type="number"
          inputMode="numeric"
          step={1}
          min={meta.min}
          max={meta.max}
          value={String(value ?? "")}
        />
        {unit && (
          <EnumSelect
            id={`setting-${unit.key}`}
            meta={unit}
            value={String(values[unit.key] ?? unit.default)}
            label={t(unit.label_key)}
            onChange={(v) => onChange(unit.key, v)}
          />
        )}
        {meta.unit && <span className="settings-unit">{t(`settings.units.${meta.unit}`)}</span>}
      </div>
    );
  } else if (meta.type === "enum") {
    control = (
      <EnumSelect
        id={id}
        meta={meta}
        value={String(value ?? meta.default)}
        describedBy={describedBy}
        invalid={invalid}
        onChange={(v) => onChange(meta.key, v)}
      />
    );
  } else if (meta.type === "string" || meta.type === "url" || meta.type === "link") {
    const text = String(value ?? "");
    control = (
      <div className="input-group">
        <input
          {...textAttrs}
          className="input"
          type="text"
          inputMode={meta.type === "string" ? undefined : "url"}
          maxLength={meta.max_length}
          value={text}
        />
        {meta.type === "url" && text.trim() !== "" && isFaviconUrl(text.trim()) && (
          <img className="settings-favicon-preview" src={text.trim()} alt="" />
        )}
      </div>
    );
  } else {
    const text = String(value ?? "");
    const isDefault = text === String(meta.default);
    control = (
      <>
        <textarea
          {...textAttrs}
          className={`input${meta.type === "markdown" ? "" : " input-mono"}`}
          rows={ROWS[meta.type] ?? 4}
          maxLength={meta.max_length}
          spellCheck={meta.type === "markdown"}
          value={text}
        />
        {meta.type === "extensions" && !isDefault && (
          <div>
            <button
              type="button"
              className="btn btn-small"
              aria-label={`${t("settings.restoreDefault")}: ${label}`}
              onClick={() => onChange(meta.key, String(meta.default))}
            >
              {t("settings.restoreDefault")}
            </button>
          </div>
        )}
      </>
    );
  }

  return (
    <div className="field settings-field">
      <label htmlFor={id}>{label}</label>
      {control}
      {messages}
    </div>
  );
}
