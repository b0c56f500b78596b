/** The options of a share: link suffix, remark, password, expiry and max views (spec §3, §5). */
import { useTranslation } from "react-i18next";
import { MAX_SLUG_LENGTH } from "../../../shared/constants.ts";
import { Field } from "./Field.tsx";
import { type ExpiryChoice, ExpirySelect } from "./ExpirySelect.tsx";

export type ShareOptionValues = {
  slug: string;
  remark: string;
  password: string;
  expiry: ExpiryChoice;
  /** Kept as typed; parsed with parseMaxViews. */
  maxViews: string;
  /** Editing only: clear the existing password. */
  removePassword: boolean;
};

export type ShareOptionErrors = { slug?: string | null; maxViews?: string | null };

/** Extra context when editing an existing share. */
export type ShareOptionEditContext = { hasPassword: boolean; keepExpiryLabel: string };

export function ShareOptions(
  { idPrefix, values, onChange, errors, edit, disabled }: {
    idPrefix: string;
    values: ShareOptionValues;
    onChange: (patch: Partial<ShareOptionValues>) => void;
    errors: ShareOptionErrors;
    edit?: ShareOptionEditContext;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className="paste-options">
      <Field
        id={id("slug")}
        label={t("paste.form.slug")}
        hint={t("paste.form.slugHint", { max: MAX_SLUG_LENGTH })}
        error={errors.slug}
      >
        {(a) => (
          <input
            {...a}
            className="input"
            type="text"
            value={values.slug}
            autoComplete="off"
            spellCheck={false}
            disabled={disabled}
            placeholder={edit ? undefined : t("paste.form.slugPlaceholder")}
            onChange={(e) => onChange({ slug: e.currentTarget.value })}
          />
        )}
      </Field>
      <Field id={id("remark")} label={t("paste.form.remark")}>
        {(a) => (
          <input
            {...a}
            className="input"
            type="text"
            value={values.remark}
            maxLength={1000}
            disabled={disabled}
            onChange={(e) => onChange({ remark: e.currentTarget.value })}
          />
        )}
      </Field>
      <Field
        id={id("password")}
        label={edit ? t("paste.form.newPassword") : t("paste.form.password")}
        hint={edit
          ? (edit.hasPassword ? t("paste.form.passwordKeepHint") : t("paste.form.passwordNoneHint"))
          : t("paste.form.passwordHint")}
      >
        {(a) => (
          <input
            {...a}
            className="input"
            type="password"
            value={values.password}
            autoComplete="new-password"
            disabled={disabled || values.removePassword}
            onChange={(e) => onChange({ password: e.currentTarget.value })}
          />
        )}
      </Field>
      {edit?.hasPassword && (
        <div className="field paste-field-check">
          <label className="check">
            <input
              id={id("remove-password")}
              type="checkbox"
              checked={values.removePassword}
              disabled={disabled}
              onChange={(e) => onChange({ removePassword: e.currentTarget.checked, password: "" })}
            />
            <span>{t("paste.form.removePassword")}</span>
          </label>
        </div>
      )}
      <Field id={id("expiry")} label={t("paste.form.expiry")}>
        {(a) => (
          <ExpirySelect
            id={a.id}
            value={values.expiry}
            disabled={disabled}
            keepLabel={edit?.keepExpiryLabel}
            onChange={(expiry) => onChange({ expiry })}
          />
        )}
      </Field>
      <Field
        id={id("max-views")}
        label={t("paste.form.maxViews")}
        hint={edit ? t("paste.form.maxViewsEditHint") : t("paste.form.maxViewsHint")}
        error={errors.maxViews}
      >
        {(a) => (
          <input
            {...a}
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={values.maxViews}
            disabled={disabled}
            onChange={(e) => onChange({ maxViews: e.currentTarget.value })}
          />
        )}
      </Field>
    </div>
  );
}
