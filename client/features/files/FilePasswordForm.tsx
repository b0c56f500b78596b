/** The password prompt of a protected file share; calls back with the opened share. */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { errorText } from "../../api/errors.ts";
import { type PublicFileView, unlockFile } from "./files_api.ts";

export function FilePasswordForm(
  { slug, ready, onUnlocked }: {
    slug: string;
    /** False until hydrated: submitting before the script runs would put the password in a URL. */
    ready: boolean;
    onUnlocked: (file: PublicFileView, password: string) => void;
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
      setError(t("file.password.empty"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await unlockFile(slug, password), password);
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
    <form
      className="file-password"
      onSubmit={submit}
      method="post"
      noValidate
      aria-labelledby="file-password-title"
    >
      <h2 id="file-password-title">{t("file.password.title")}</h2>
      <p className="muted">{t("file.password.body")}</p>
      <div className="file-password-row">
        <label htmlFor="file-password">{t("file.password.label")}</label>
        <input
          id="file-password"
          className="input"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "file-password-error" : undefined}
          autoFocus
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!ready || busy}
          aria-busy={busy}
        >
          {t("file.password.submit")}
        </button>
      </div>
      {error && <p id="file-password-error" className="field-error" role="alert">{error}</p>}
    </form>
  );
}
