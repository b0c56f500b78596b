import assert from "node:assert/strict";
import { ApiError } from "../api/client.ts";
import { lockedScreen } from "./share_lock.ts";
import { fileScreenForError } from "../features/files/file_screen.ts";
import { pasteScreenForError } from "../features/pastes/paste_screen.ts";

const e2e = { version: 1, has_password: false } as never;

Deno.test("a refusal for want of a password asks for the key of an e2e share, else the password", () => {
  const meta = { slug: "abc" };
  assert.deepEqual(lockedScreen(new ApiError("password_required", 401, null), meta), {
    kind: "password",
    meta,
  });
  assert.deepEqual(lockedScreen(new ApiError("password_required", 401, null, { e2e }), meta), {
    kind: "e2e",
    meta,
    e2e,
  });
  assert.equal(lockedScreen(new ApiError("file_not_found", 404, null), meta), null);
  assert.equal(lockedScreen(new TypeError("Failed to fetch"), meta), null);
});

Deno.test("file and paste screens after a failed open", () => {
  const wrong = new ApiError("wrong_password", 401, null);
  assert.deepEqual(fileScreenForError(wrong, null, "m"), { kind: "password", meta: null });
  assert.deepEqual(fileScreenForError(new ApiError("file_expired", 410, null), null, "m"), {
    kind: "error",
    status: 410,
    code: "file_expired",
    message: "m",
  });
  assert.deepEqual(fileScreenForError(new TypeError("offline"), null, "m"), {
    kind: "error",
    status: 0,
    code: "request_failed",
    message: "m",
  });
  assert.deepEqual(pasteScreenForError(new ApiError("paste_expired", 410, null), null, "m"), {
    kind: "error",
    code: "paste_expired",
  });
  assert.deepEqual(pasteScreenForError(wrong, null, "m"), {
    kind: "error",
    code: "other",
    message: "m",
  });
  assert.deepEqual(
    pasteScreenForError(new ApiError("password_required", 401, null, { e2e }), null, "m"),
    { kind: "e2e", meta: null, e2e },
  );
});
