/**
 * The password prompt of a protected share (paste or file); calls back with what it opened, and
 * then, as the form that held the focus is gone, gives it to the share's heading.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client.ts";
import { errorText } from "../api/errors.ts";
import { afterPaint, focusPageHeading } from "../lib/focus.ts";
import { PasswordPrompt } from "./PasswordPrompt.tsx";

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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (password: string) => {
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await unlock(password), password);
      afterPaint(focusPageHeading);
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
    <PasswordPrompt
      id={`${kind}-password`}
      texts={`${kind}.password`}
      method="post"
      autoComplete="current-password"
      error={error}
      ready={ready}
      busy={busy}
      onSubmit={(password) => void submit(password)}
    />
  );
}
