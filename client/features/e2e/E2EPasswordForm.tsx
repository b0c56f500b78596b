/**
 * The password prompt of an end-to-end encrypted share: the password is mixed into the key in
 * this browser (never sent), and a wrong one is reported by the caller through `error`.
 */
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
  return (
    <PasswordPrompt
      id="e2e-password"
      titleId="e2e-pw-title"
      rowClassName="paste-password-row"
      texts="e2e.password"
      autoComplete="off"
      error={error}
      ready={ready}
      busy={busy}
      onSubmit={onSubmit}
    />
  );
}
