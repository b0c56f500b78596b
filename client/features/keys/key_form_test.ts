import assert from "node:assert/strict";
import {
  allPermissions,
  editKeyForm,
  expiresAtFor,
  newKeyForm,
  parseCustomDays,
  selectionState,
  toCreateBody,
  toUpdateBody,
  validateKeyForm,
} from "./key_form.ts";
import type { ApiKeyView } from "./keys_api.ts";

const NOW = Date.parse("2026-01-01T00:00:00.000Z");
const LONG_KEY = "Good_key-123_with-enough_length_0";

Deno.test("validation: name, custom days, custom key and base path", () => {
  const blank = { ...newKeyForm(), name: "  " };
  assert.deepEqual(validateKeyForm(blank, "create"), { name: "keys.validation.nameRequired" });
  const base = { ...newKeyForm(), name: "ci" };
  assert.deepEqual(validateKeyForm(base, "create"), {});
  assert.equal(
    validateKeyForm({ ...base, expiry: "custom" }, "create").customDays,
    "keys.validation.customDaysRequired",
  );
  for (const bad of ["0", "-3", "1.5", "abc", "36501"]) {
    assert.equal(
      validateKeyForm({ ...base, expiry: "custom", customDays: bad }, "create").customDays,
      "keys.validation.customDaysInvalid",
      bad,
    );
  }
  assert.deepEqual(validateKeyForm({ ...base, expiry: "custom", customDays: "12" }, "create"), {});
  assert.equal(
    validateKeyForm({ ...base, useCustomKey: true }, "create").customKey,
    "keys.validation.customKeyRequired",
  );
  for (const bad of ["has space here", "ünïcode-key", "x".repeat(129)]) {
    assert.equal(
      validateKeyForm({ ...base, useCustomKey: true, customKey: bad }, "create").customKey,
      "keys.validation.customKeyInvalid",
      bad,
    );
  }
  // Shorter than 32 characters a key could be guessed: the server refuses it too.
  for (const short of ["short", "Good_key-123", "x".repeat(31)]) {
    assert.equal(
      validateKeyForm({ ...base, useCustomKey: true, customKey: short }, "create").customKey,
      "keys.validation.customKeyTooShort",
      short,
    );
  }
  assert.deepEqual(
    validateKeyForm({ ...base, useCustomKey: true, customKey: LONG_KEY }, "create"),
    {},
  );
  // the custom key is not part of editing
  assert.deepEqual(validateKeyForm({ ...base, useCustomKey: true }, "edit"), {});
  // Each refusal names what is wrong: `/../etc` starts with / but has a `..` segment.
  const cases: [string, string][] = [
    ["data", "errors.base_path_not_absolute"],
    ["/../etc", "errors.base_path_dot_segment"],
    ["/a/../b", "errors.base_path_dot_segment"],
    ["/a/./b", "errors.base_path_dot_segment"],
    ["/a\\b", "errors.base_path_backslash"],
  ];
  for (const [bad, code] of cases) {
    assert.equal(validateKeyForm({ ...base, basicPath: bad }, "create").basicPath, code, bad);
  }
});

Deno.test("expiry presets become ISO times; never is null; keep is left out", () => {
  assert.equal(expiresAtFor("1d", "", NOW), "2026-01-02T00:00:00.000Z");
  assert.equal(expiresAtFor("7d", "", NOW), "2026-01-08T00:00:00.000Z");
  assert.equal(expiresAtFor("30d", "", NOW), "2026-01-31T00:00:00.000Z");
  assert.equal(expiresAtFor("custom", "3", NOW), "2026-01-04T00:00:00.000Z");
  assert.equal(expiresAtFor("never", "", NOW), null);
  assert.equal(expiresAtFor("keep", "", NOW), undefined);
  assert.equal(parseCustomDays(" 5 "), 5);
});

Deno.test("create and update bodies follow the API's payload", () => {
  const form = {
    ...newKeyForm(),
    name: " ci ",
    expiry: "never" as const,
    basicPath: "/docs//",
    useCustomKey: true,
    customKey: LONG_KEY,
    isGuest: true,
  };
  assert.deepEqual(toCreateBody(form, NOW), {
    name: "ci",
    expires_at: null,
    permissions: {
      text: true,
      file: false,
      mount_view: false,
      mount_upload: false,
      mount_copy: false,
      mount_rename: false,
      mount_delete: false,
      webdav_read: false,
      webdav_manage: false,
    },
    role: "GENERAL",
    basic_path: "/docs",
    is_guest: 1,
    custom_key: LONG_KEY,
  });
  assert.equal("custom_key" in toCreateBody({ ...form, useCustomKey: false }, NOW), false);

  const view = {
    id: "k1",
    name: "old",
    expires_at: "2027-01-01T00:00:00.000Z",
    permissions: allPermissions(false),
    basic_path: "/a",
    is_guest: false,
  } as ApiKeyView;
  const edit = editKeyForm(view);
  assert.equal(edit.expiry, "keep");
  assert.equal("expires_at" in toUpdateBody(edit, NOW), false);
  assert.equal(toUpdateBody({ ...edit, expiry: "never" }, NOW).expires_at, null);
  assert.equal(editKeyForm({ ...view, expires_at: null }).expiry, "never");
});

Deno.test("select-all state", () => {
  assert.equal(selectionState(allPermissions(true)), "all");
  assert.equal(selectionState(allPermissions(false)), "none");
  assert.equal(selectionState(newKeyForm().permissions), "some");
});
