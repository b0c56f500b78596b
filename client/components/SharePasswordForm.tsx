/** The password prompt of a protected share (paste or file); calls back with what it opened. */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client.ts";
import { errorText } from "../api/errors.ts";

export function SharePasswordForm<T>(
  { kind, ready, unlock, onUnlocked }: {
    /** Names the ids, classes (`<kind>-password…`) and texts (`<kind>.password.*`). */
    kind: "paste" | "file";
    /** False until hydrated: submitting before the script runs would put the password in a URL. */
    ready: boolean;
    unlock: (password: string) => Promise<T>;
    onUnlocked: (opened: T, password: string) => void;
  },
) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `${kind}-password`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    if (password === "") {
      setError(t(`${kind}.password.empty`));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await unlock(password), password);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === "wrong_password"
          // A file asks to retry; a paste says "wrong password" (docs/PRODUCT.md §8.5, §5.5).
          ? t(kind === "file" ? "errors.wrong_password_retry" : "errors.wrong_password")
          : errorText(t, err),
      );
      setBusy(false);
    }
  };

  return (
    <form className={id} onSubmit={submit} method="post" noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t(`${kind}.password.title`)}</h2>
      <p className="muted">{t(`${kind}.password.body`)}</p>
      <div className={`${id}-row`}>
        <label htmlFor={id}>{t(`${kind}.password.label`)}</label>
        <input
          id={id}
          className="input"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) =>
            setPassword(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!ready || busy}
          aria-busy={busy}
        >
          {t(`${kind}.password.submit`)}
        </button>
      </div>
      {error && <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
    </form>
  );
}
