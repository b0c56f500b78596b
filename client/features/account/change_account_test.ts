import assert from "node:assert/strict";
import { validateAccountForm } from "./change_account.ts";

const form = (v: Partial<Parameters<typeof validateAccountForm>[0]>) => ({
  currentPassword: "",
  newUsername: "",
  newPassword: "",
  confirmPassword: "",
  ...v,
});

Deno.test("account update: current password, something to change, a different new password", () => {
  assert.deepEqual(validateAccountForm(form({})), {
    currentPassword: "account.validation.currentRequired",
    form: "errors.nothing_to_change",
  });
  assert.deepEqual(validateAccountForm(form({ currentPassword: "a", newUsername: "root" })), {});
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: "a", newPassword: "a", confirmPassword: "a" })),
    { newPassword: "errors.password_unchanged" },
  );
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: "a", newPassword: "b", confirmPassword: "c" })),
    { confirmPassword: "account.validation.confirmMismatch" },
  );
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: "a", newPassword: "b", confirmPassword: "b" })),
    {},
  );
});
