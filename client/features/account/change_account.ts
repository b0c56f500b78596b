/** The admin's account change (docs/PRODUCT.md §5.3, §7.1 POST /admin/change-password). */
import { api, ApiError } from "../../api/client.ts";
import { clearAuth, getAuth } from "../../auth/auth_store.ts";
import type { RefusalMap } from "../../api/field_errors.ts";
import { passwordProblem, usernameProblem } from "../../../shared/account_rules.ts";

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
 * Checks the form: current password required; a new username (by the account rules, and other
 * than `currentUsername`) or a new password (long enough, other than the current one, matching
 * its confirmation). Texts take ACCOUNT_RULE_PARAMS.
 */
export function validateAccountForm(
  v: AccountFormValues,
  currentUsername: string | null,
): AccountFormErrors {
  const errors: AccountFormErrors = {};
  if (!v.currentPassword) errors.currentPassword = "account.validation.currentRequired";
  const username = v.newUsername.trim();
  const usernameChanges = username !== "" && username !== currentUsername;
  if (usernameChanges) {
    const problem = usernameProblem(username);
    if (problem) errors.newUsername = `errors.${problem}`;
  }
  if (!usernameChanges && !v.newPassword) errors.form = "errors.nothing_to_change";
  if (v.newPassword) {
    const problem = passwordProblem(v.newPassword);
    if (problem) errors.newPassword = `errors.${problem}`;
    else if (v.currentPassword && v.newPassword === v.currentPassword) {
      errors.newPassword = "errors.password_unchanged";
    }
    if (v.confirmPassword !== v.newPassword) {
      errors.confirmPassword = "account.validation.confirmMismatch";
    }
  }
  return errors;
}

/** Where a server refusal goes: the request's fields are the form's. */
export const ACCOUNT_REFUSALS: RefusalMap<AccountFormField> = {
  fields: {
    currentPassword: "currentPassword",
    newPassword: "newPassword",
    newUsername: "newUsername",
  },
  codes: { wrong_current_password: "currentPassword" },
};

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
