import assert from "node:assert/strict";
import { validateAccountForm as validate } from "./change_account.ts";

const form = (v: Partial<Parameters<typeof validate>[0]>) => ({
  currentPassword: "",
  newUsername: "",
  newPassword: "",
  confirmPassword: "",
  ...v,
});
const validateAccountForm = (v: Parameters<typeof validate>[0]) => validate(v, "admin");
const CURRENT = "current-password-1";
const NEW = "a-new-password-2";

Deno.test("account update: current password, something to change, a different new password", () => {
  assert.deepEqual(validateAccountForm(form({})), {
    currentPassword: "account.validation.currentRequired",
    form: "errors.nothing_to_change",
  });
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: CURRENT, newUsername: "root" })),
    {},
  );
  assert.deepEqual(
    validateAccountForm(
      form({ currentPassword: CURRENT, newPassword: CURRENT, confirmPassword: CURRENT }),
    ),
    { newPassword: "errors.password_unchanged" },
  );
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: CURRENT, newPassword: NEW, confirmPassword: "c" })),
    { confirmPassword: "account.validation.confirmMismatch" },
  );
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: CURRENT, newPassword: NEW, confirmPassword: NEW })),
    {},
  );
});

Deno.test("account update: the password and username rules, and the current username is no change", () => {
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: CURRENT, newPassword: "x", confirmPassword: "x" })),
    { newPassword: "errors.password_too_short" },
  );
  for (const name of ["a".repeat(51), "a/b", "<b>", "my admin"]) {
    assert.deepEqual(
      validateAccountForm(form({ currentPassword: CURRENT, newUsername: name })),
      { newUsername: "errors.username_invalid" },
      name,
    );
  }
  assert.deepEqual(validateAccountForm(form({ currentPassword: CURRENT, newUsername: "admin" })), {
    form: "errors.nothing_to_change",
  });
  assert.deepEqual(
    validateAccountForm(form({ currentPassword: CURRENT, newUsername: " admin " })),
    { form: "errors.nothing_to_change" },
  );
});
