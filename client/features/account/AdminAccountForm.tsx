/** The admin's username and password form, with the logout countdown after success. */
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../auth/auth_store.ts";
import { useAuthActions } from "../../auth/use_auth_actions.ts";
import { splitRefusal } from "../../api/field_errors.ts";
import { InputField } from "../../components/FormField.tsx";
import { FormAlert } from "../../components/FormAlert.tsx";
import { ACCOUNT_RULE_PARAMS } from "../../../shared/account_rules.ts";
import {
  ACCOUNT_REFUSALS,
  type AccountFormErrors,
  type AccountFormField,
  type AccountFormValues,
  changeAccount,
  validateAccountForm,
} from "./change_account.ts";

/** Seconds between a successful change and the logout. */
export const LOGOUT_COUNTDOWN_S = 3;

const EMPTY: AccountFormValues = {
  currentPassword: "",
  newUsername: "",
  newPassword: "",
  confirmPassword: "",
};

/** The change form; after success a countdown, then logout. */
export function AdminAccountForm() {
  const { t } = useTranslation();
  const id = useId();
  const auth = useAuth();
  const { logout } = useAuthActions();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<AccountFormErrors>({});
  /** The server's texts at the fields its refusal named. */
  const [serverErrors, setServerErrors] = useState<AccountFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [countdown, setCountdown] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (countdown === null) return;
    if (countdown <= 0) {
      void logout();
      return;
    }
    const timer = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown, logout]);

  useEffect(() => {
    if (countdown === LOGOUT_COUNTDOWN_S) doneRef.current?.focus();
  }, [countdown]);

  const set = (field: keyof AccountFormValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };
  const focusField = (field: AccountFormField) =>
    formRef.current?.querySelector<HTMLElement>(
      `[name="${field === "form" ? "newUsername" : field}"]`,
    )?.focus();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateAccountForm(values, auth.userInfo?.name ?? null);
    setErrors(found);
    setServerErrors({});
    setServerError(null);
    const firstBad = (Object.keys(found) as AccountFormField[]).find((f) => found[f]);
    if (firstBad) {
      focusField(firstBad);
      return;
    }
    setBusy(true);
    try {
      await changeAccount(values);
      setValues(EMPTY);
      setCountdown(LOGOUT_COUNTDOWN_S);
    } catch (err) {
      const refusal = splitRefusal(t, err, ACCOUNT_REFUSALS, "verify_failed");
      setServerErrors(refusal.fields);
      setServerError(refusal.form);
      const field = (Object.keys(refusal.fields) as AccountFormField[])[0];
      if (field) focusField(field);
    } finally {
      setBusy(false);
    }
  };

  if (countdown !== null) {
    return (
      <div className="card account-done" ref={doneRef} tabIndex={-1}>
        <h2>{t("account.success.title")}</h2>
        <p role="status" aria-live="polite" className="countdown">
          {t("account.success.countdown", { seconds: Math.max(countdown, 0) })}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => void logout()}>
          {t("account.success.logoutNow")}
        </button>
      </div>
    );
  }

  const field = (
    name: keyof AccountFormValues,
    opts: { type?: string; autoComplete: string; hint?: boolean; required?: boolean },
  ) => {
    const error = serverErrors[name] ??
      (errors[name] ? t(errors[name]!, ACCOUNT_RULE_PARAMS) : null);
    return (
      <InputField
        id={`${id}-${name}`}
        label={t(`account.admin.${name}`)}
        hint={opts.hint ? t(`account.admin.${name}Hint`, ACCOUNT_RULE_PARAMS) : undefined}
        name={name}
        type={opts.type ?? "password"}
        autoComplete={opts.autoComplete}
        required={opts.required}
        value={values[name]}
        onChange={(v) => set(name, v)}
        error={error}
        errorLast
      />
    );
  };

  return (
    <div className="card account-card">
      <h2>{t("account.admin.heading")}</h2>
      <p className="muted">{t("account.admin.description")}</p>
      {auth.userInfo && (
        <p>
          {t("account.admin.currentUsername")}: <strong>{auth.userInfo.name}</strong>
        </p>
      )}
      <form ref={formRef} className="form" onSubmit={onSubmit} noValidate>
        {field("currentPassword", { autoComplete: "current-password", required: true })}
        {field("newUsername", { type: "text", autoComplete: "username", hint: true })}
        {field("newPassword", { autoComplete: "new-password", hint: true })}
        {field("confirmPassword", { autoComplete: "new-password" })}
        <FormAlert text={errors.form ? t(errors.form) : serverError} />
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
          {busy ? t("account.admin.saving") : t("account.admin.submit")}
        </button>
      </form>
    </div>
  );
}
