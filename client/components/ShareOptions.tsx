/**
 * The one share-options form (docs/PRODUCT.md §3.1, §5.2): link suffix, remark, password, expiry
 * and max views. The paste editor, the upload page and both edit dialogs use it.
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { MAX_SLUG_LENGTH } from "../../shared/constants.ts";
import { CheckField, InputField } from "./FormField.tsx";
import { type ExpiryChoice, ExpiryField } from "./ExpiryField.tsx";

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
  { idPrefix, values, onChange, errors, edit, disabled, texts = "paste.form", slugOff, layout }: {
    idPrefix: string;
    values: Omit<ShareOptionValues, "removePassword"> & { removePassword?: boolean };
    onChange: (patch: Partial<ShareOptionValues>) => void;
    errors: ShareOptionErrors;
    edit?: ShareOptionEditContext;
    disabled?: boolean;
    /** Where the labels and hints come from: the paste screens' or the upload page's keys. */
    texts?: "paste.form" | "upload.options";
    /** When set, the link suffix is off and this hint says why (several files at once). */
    slugOff?: string;
    /** "upload": fields without the grid box, expiry and max views side by side. */
    layout?: "grid" | "upload";
  },
) {
  const { t } = useTranslation();
  const id = (name: string) => `${idPrefix}-${name}`;
  const limits = (
    <>
      <ExpiryField
        id={id("expiry")}
        label={t(`${texts}.expiry`)}
        value={values.expiry}
        disabled={disabled}
        keepLabel={edit?.keepExpiryLabel}
        onChange={(expiry) => onChange({ expiry })}
      />
      <InputField
        id={id("max-views")}
        label={t(`${texts}.maxViews`)}
        hint={edit ? t("paste.form.maxViewsEditHint") : t(`${texts}.maxViewsHint`)}
        error={errors.maxViews}
        whole
        min={0}
        value={values.maxViews}
        disabled={disabled}
        onChange={(maxViews) => onChange({ maxViews })}
      />
    </>
  );
  const fields: ReactNode = (
    <>
      <InputField
        id={id("slug")}
        label={t(`${texts}.slug`)}
        hint={slugOff ?? t(`${texts}.slugHint`, { max: MAX_SLUG_LENGTH })}
        error={slugOff ? null : errors.slug}
        type="text"
        value={slugOff ? "" : values.slug}
        maxLength={MAX_SLUG_LENGTH + 10}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled || !!slugOff}
        placeholder={edit ? undefined : t(`${texts}.slugPlaceholder`)}
        onChange={(slug) => onChange({ slug })}
      />
      <InputField
        id={id("remark")}
        label={t(`${texts}.remark`)}
        type="text"
        value={values.remark}
        maxLength={1000}
        disabled={disabled}
        onChange={(remark) => onChange({ remark })}
      />
      <InputField
        id={id("password")}
        label={edit ? t("paste.form.newPassword") : t(`${texts}.password`)}
        hint={edit
          ? (edit.hasPassword ? t("paste.form.passwordKeepHint") : t("paste.form.passwordNoneHint"))
          : t(`${texts}.passwordHint`)}
        type="password"
        value={values.password}
        maxLength={1000}
        autoComplete="new-password"
        disabled={disabled || values.removePassword}
        onChange={(password) => onChange({ password })}
      />
      {edit?.hasPassword && (
        <CheckField
          id={id("remove-password")}
          className="paste-field-check"
          label={t("paste.form.removePassword")}
          checked={!!values.removePassword}
          disabled={disabled}
          onChange={(on) => onChange({ removePassword: on, password: "" })}
        />
      )}
      {layout === "upload" ? <div className="upload-options-row">{limits}</div> : limits}
    </>
  );
  return layout === "upload" ? fields : <div className="paste-options">{fields}</div>;
}
