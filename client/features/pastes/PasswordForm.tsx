/** The password prompt of a protected share; calls back with the opened paste. */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import { type PasteView, unlockPaste } from "./pastes_api.ts";

export function PasswordForm(
  { slug, ready, onUnlocked }: {
    slug: string;
    /** False until hydrated: submitting before the script runs would put the password in a URL. */
    ready: boolean;
    onUnlocked: (paste: PasteView, password: string) => void;
  },
) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    if (password === "") {
      setError(t("paste.password.empty"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await unlockPaste(slug, password), password);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === "wrong_password"
          ? t("errors.wrong_password")
          : errorText(t, err),
      );
      setBusy(false);
    }
  };

  return (
    <form className="paste-password" onSubmit={submit} method="post" noValidate>
      <h2 id="paste-password-title">{t("paste.password.title")}</h2>
      <p className="muted">{t("paste.password.body")}</p>
      <div className="paste-password-row">
        <label htmlFor="paste-password">{t("paste.password.label")}</label>
        <input
          id="paste-password"
          className="input"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "paste-password-error" : undefined}
          autoFocus
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!ready || busy}
          aria-busy={busy}
        >
          {t("paste.password.submit")}
        </button>
      </div>
      {error && <p id="paste-password-error" className="field-error" role="alert">{error}</p>}
    </form>
  );
}
