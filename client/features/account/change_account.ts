/** The admin's account change (docs/PRODUCT.md §5.3, §7.1 POST /admin/change-password). */
import { api, ApiError } from "../../api/client.ts";
import { clearAuth, getAuth } from "../../auth/auth_store.ts";

export type AccountFormValues = {
  currentPassword: string;
  newUsername: string;
  newPassword: string;
  confirmPassword: string;
};

export type AccountFormField = keyof AccountFormValues | "form";
/** Field → i18n key of the problem. */
export type AccountFormErrors = Partial<Record<AccountFormField, string>>;

/**
 * Checks the form: current password required; a new username or a new password; a new
 * password that differs from the current one and matches its confirmation.
 */
export function validateAccountForm(v: AccountFormValues): AccountFormErrors {
  const errors: AccountFormErrors = {};
  if (!v.currentPassword) errors.currentPassword = "account.validation.currentRequired";
  if (!v.newUsername.trim() && !v.newPassword) errors.form = "errors.nothing_to_change";
  if (v.newPassword) {
    if (v.currentPassword && v.newPassword === v.currentPassword) {
      errors.newPassword = "errors.password_unchanged";
    }
    if (v.confirmPassword !== v.newPassword) {
      errors.confirmPassword = "account.validation.confirmMismatch";
    }
  }
  return errors;
}

/**
 * Sends the change. The token goes as an explicit header so that a wrong current password
 * (401 wrong_current_password) shows as a form error instead of logging out; a 401 for the
 * session itself still clears the credentials. Throws ApiError.
 */
export async function changeAccount(v: AccountFormValues): Promise<void> {
  const token = getAuth().adminToken;
  try {
    await api("/admin/change-password", {
      method: "POST",
      anonymous: true,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      body: {
        currentPassword: v.currentPassword,
        newPassword: v.newPassword,
        newUsername: v.newUsername.trim(),
      },
    });
  } catch (err) {
    if (
      err instanceof ApiError && err.status === 401 &&
      (err.code === "session_expired" || err.code === "invalid_token" ||
        err.code === "unauthorized")
    ) {
      clearAuth("session_expired");
    }
    throw err;
  }
}
