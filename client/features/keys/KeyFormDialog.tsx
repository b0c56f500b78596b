/**
 * The create and edit dialog of an API key: name, expiry preset or custom days, permissions
 * with select-all, base path, guest flag and (create only) a custom key. Errors are shown next
 * to their fields, the server's too when it names one (KEY_REFUSALS); any other refusal at the
 * top of the form.
 */
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../components/FormDialog.tsx";
import {
  CheckField,
  CheckLabel,
  InputField,
  SelectAllCheck,
  SelectField,
} from "../../components/FormField.tsx";
import { splitRefusal } from "../../api/field_errors.ts";
import type { PermissionObject } from "../../../shared/permissions.ts";
import {
  allPermissions,
  CUSTOM_KEY_MIN_LENGTH,
  editKeyForm,
  type ExpiryChoice,
  KEY_REFUSALS,
  type KeyFormErrors,
  type KeyFormField,
  type KeyFormValues,
  MAX_CUSTOM_DAYS,
  newKeyForm,
  selectionState,
  toCreateBody,
  toUpdateBody,
  validateKeyForm,
} from "./key_form.ts";
import { type ApiKeyView, createApiKey, updateApiKey } from "./keys_api.ts";
import { formatDateTime } from "../../lib/format.ts";

export type KeyFormDialogProps = {
  /** The key being edited; absent to create one. */
  editing?: ApiKeyView | null;
  onClose: () => void;
  /** Called after a successful save with the server's reply (which holds `key` on create). */
  onSaved: (key: ApiKeyView & { key?: string }) => void;
};

const PRESETS: ExpiryChoice[] = ["1d", "7d", "30d", "never", "custom"];
const GROUPS: { id: string; keys: (keyof PermissionObject)[] }[] = [
  { id: "share", keys: ["text", "file"] },
  {
    id: "mount",
    keys: ["mount_view", "mount_upload", "mount_copy", "mount_rename", "mount_delete"],
  },
  { id: "webdav", keys: ["webdav_read", "webdav_manage"] },
];

/** Field props for accessible errors: aria-invalid and aria-describedby. */
function describe(id: string, error: string | undefined, hint?: boolean) {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-err` : ""].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined };
}

/** Creates a key (no `editing`) or edits one, then calls onSaved with the server's reply. */
export function KeyFormDialog({ editing, onClose, onSaved }: KeyFormDialogProps) {
  const { t, i18n } = useTranslation();
  const mode = editing ? "edit" : "create";
  const id = useId();
  const [values, setValues] = useState<KeyFormValues>(() =>
    editing ? editKeyForm(editing) : newKeyForm()
  );
  const [errors, setErrors] = useState<KeyFormErrors>({});
  /** The server's texts at the fields its refusal named. */
  const [serverErrors, setServerErrors] = useState<KeyFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof KeyFormValues>(key: K, value: KeyFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key in errors) setErrors((e) => ({ ...e, [key as KeyFormField]: undefined }));
    if (key in serverErrors) {
      setServerErrors((e) => ({ ...e, [key as KeyFormField]: undefined }));
    }
  };
  const focusField = (field: KeyFormField) =>
    document.getElementById(`${id}-form`)?.querySelector<HTMLElement>(`[data-field="${field}"]`)
      ?.focus();
  const setPermission = (key: keyof PermissionObject, on: boolean) =>
    setValues((v) => ({ ...v, permissions: { ...v.permissions, [key]: on } }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateKeyForm(values, mode);
    setErrors(found);
    setServerErrors({});
    setServerError(null);
    const firstBad = (Object.keys(found) as KeyFormField[])[0];
    if (firstBad) {
      focusField(firstBad);
      return;
    }
    setBusy(true);
    try {
      const saved = editing
        ? await updateApiKey(editing.id, toUpdateBody(values))
        : await createApiKey(toCreateBody(values));
      onSaved(saved);
    } catch (err) {
      const refusal = splitRefusal(t, err, KEY_REFUSALS);
      setServerErrors(refusal.fields);
      setServerError(refusal.form);
      setBusy(false);
      const field = (Object.keys(refusal.fields) as KeyFormField[])[0];
      // The field is enabled again only after this render.
      if (field) requestAnimationFrame(() => focusField(field));
    }
  };

  /** The error text of a field, or null. */
  const errorOf = (field: KeyFormField) =>
    serverErrors[field] ??
      (errors[field]
        ? t(errors[field]!, { max: MAX_CUSTOM_DAYS, min: CUSTOM_KEY_MIN_LENGTH })
        : null);
  const err = (field: KeyFormField) =>
    errorOf(field) && <p id={`${id}-${field}-err`} className="field-error">{errorOf(field)}</p>;
  const expiryOptions: ExpiryChoice[] = editing?.expires_at ? ["keep", ...PRESETS] : PRESETS;

  return (
    <FormDialog
      title={t(mode === "create" ? "keys.form.createTitle" : "keys.form.editTitle")}
      formId={`${id}-form`}
      form={{ submit: onSubmit, busy }}
      onClose={onClose}
      error={serverError}
      busyLabel={t("keys.form.saving")}
      submitLabel={t(mode === "create" ? "keys.form.submitCreate" : "keys.form.submitEdit")}
    >
      <InputField
        id={`${id}-name`}
        label={t("keys.form.name")}
        data-field="name"
        value={values.name}
        maxLength={100}
        required
        placeholder={t("keys.form.namePlaceholder")}
        onChange={(v) => set("name", v)}
        error={errorOf("name")}
      />

      <div className="field-row">
        <SelectField
          id={`${id}-expiry`}
          label={t("keys.form.expiry")}
          value={values.expiry}
          onChange={(v) => set("expiry", v as ExpiryChoice)}
        >
          {expiryOptions.map((choice) => (
            <option key={choice} value={choice}>
              {t(`keys.form.expiryOptions.${choice}`, {
                date: formatDateTime(editing?.expires_at, i18n.language, ""),
              })}
            </option>
          ))}
        </SelectField>
        {values.expiry === "custom" && (
          <InputField
            id={`${id}-customDays`}
            label={t("keys.form.customDays")}
            data-field="customDays"
            whole
            min={1}
            max={MAX_CUSTOM_DAYS}
            required
            value={values.customDays}
            onChange={(v) => set("customDays", v)}
            error={errorOf("customDays")}
          />
        )}
      </div>

      <fieldset className="fieldset">
        <legend>{t("keys.form.permissions")}</legend>
        <SelectAllCheck
          label={t("keys.form.selectAll")}
          state={selectionState(values.permissions)}
          onChange={(all) => set("permissions", allPermissions(all))}
        />
        <div className="permission-grid">
          {GROUPS.map((group) => (
            <div key={group.id} className="permission-group">
              {group.keys.map((key) => (
                <CheckLabel
                  key={key}
                  name={key}
                  label={t(`keys.permissions.${key}`)}
                  checked={values.permissions[key]}
                  onChange={(v) => setPermission(key, v)}
                />
              ))}
            </div>
          ))}
        </div>
      </fieldset>

      <InputField
        id={`${id}-basicPath`}
        label={t("keys.form.basePath")}
        hint={t("keys.form.basePathHint")}
        data-field="basicPath"
        mono
        value={values.basicPath}
        spellCheck={false}
        onChange={(v) => set("basicPath", v)}
        error={errorOf("basicPath")}
        errorLast
      />

      {mode === "create" && (
        <div className="field">
          <CheckLabel
            label={t("keys.form.useCustomKey")}
            checked={values.useCustomKey}
            onChange={(v) => set("useCustomKey", v)}
          />
          {values.useCustomKey && (
            <>
              <label htmlFor={`${id}-customKey`}>{t("keys.form.customKey")}</label>
              <input
                id={`${id}-customKey`}
                data-field="customKey"
                className="input input-mono"
                value={values.customKey}
                maxLength={128}
                autoComplete="off"
                spellCheck={false}
                required
                onChange={(e) => set("customKey", e.target.value)}
                {...describe(`${id}-customKey`, errorOf("customKey") ?? undefined, true)}
              />
              <p id={`${id}-customKey-hint`} className="field-hint">
                {t("keys.form.customKeyHint")}
              </p>
              {err("customKey")}
            </>
          )}
        </div>
      )}

      <CheckField
        id={`${id}-guest`}
        label={t("keys.form.guest")}
        hint={t("keys.form.guestHint")}
        checked={values.isGuest}
        onChange={(v) => set("isGuest", v)}
      />
    </FormDialog>
  );
}
