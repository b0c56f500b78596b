/**
 * The password prompt of an end-to-end encrypted share: the password is mixed into the key in
 * this browser (never sent), and a wrong one is reported by the caller through `error`.
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordPrompt } from "../../components/PasswordPrompt.tsx";

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
    <PasswordPrompt
      id="e2e-password"
      titleId="e2e-pw-title"
      rowClassName="paste-password-row"
      texts="e2e.password"
      autoComplete="off"
      value={password}
      onChange={setPassword}
      error={shown}
      ready={ready}
      busy={busy}
      onSubmit={submit}
    />
  );
}
