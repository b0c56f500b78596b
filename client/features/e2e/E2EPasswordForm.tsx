/**
 * The password prompt of an end-to-end encrypted share: the password is mixed into the key in
 * this browser (never sent), and a wrong one is reported by the caller through `error`. `ready`
 * stays false until hydrated: nothing can be decrypted before the script runs.
 */
import type { ComponentProps } from "react";
import { PasswordPrompt } from "../../components/PasswordPrompt.tsx";

export function E2EPasswordForm(
  props: Pick<ComponentProps<typeof PasswordPrompt>, "ready" | "busy" | "error" | "onSubmit">,
) {
  return (
    <PasswordPrompt
      id="e2e-password"
      titleId="e2e-pw-title"
      rowClassName="paste-password-row"
      texts="e2e.password"
      autoComplete="off"
      {...props}
    />
  );
}
