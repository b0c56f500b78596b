/**
 * The password prompt of an end-to-end encrypted share: the password is mixed into the key in
 * this browser (never sent), and a wrong one is reported by the caller through `error`.
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";

export function E2EPasswordForm(
  { ready, busy, error, onSubmit }: {
    /** False until hydrated: nothing can be decrypted before the script runs. */
    ready: boolean;
    busy: boolean;
    error: string | null;
    onSubmit: (password: string) => void;
  },
) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [empty, setEmpty] = useState(false);
  const shown = empty ? t("e2e.password.empty") : error;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    if (password === "") {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    onSubmit(password);
  };
  return (
    <form className="e2e-password" onSubmit={submit} noValidate aria-labelledby="e2e-pw-title">
      <h2 id="e2e-pw-title">{t("e2e.password.title")}</h2>
      <p className="muted">{t("e2e.password.body")}</p>
      <div className="paste-password-row">
        <label htmlFor="e2e-password">{t("e2e.password.label")}</label>
        <input
          id="e2e-password"
          className="input"
          type="password"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? "e2e-password-error" : undefined}
          autoFocus
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!ready || busy}
          aria-busy={busy}
        >
          {t("e2e.password.submit")}
        </button>
      </div>
      {shown && <p id="e2e-password-error" className="field-error" role="alert">{shown}</p>}
    </form>
  );
}
