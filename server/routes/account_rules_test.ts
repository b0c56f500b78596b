/**
 * The admin account's rules: a password of at least 12 characters and a username of 1-50
 * letters, digits, `_ . -`, refused at their field in both languages; an unchanged username is
 * nothing to change and keeps the sessions; a short ADMIN_PASSWORD keeps the server from starting.
 */
import assert from "node:assert/strict";
import { ADMIN, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { startFailure } from "../../tests/helpers/server.ts";

const URL = "/api/admin/change-password";

/** Asks `URL` for `change` as `auth`, with the right current password (in `language` if given). */
function changeAccount(
  t: TestApp,
  auth: string,
  change: Record<string, string>,
  language?: string,
) {
  return t.request(URL, {
    method: "POST",
    auth,
    headers: language ? { "accept-language": language } : undefined,
    json: { currentPassword: ADMIN.password, ...change },
  });
}

Deno.test("account change: a one-character password is refused at its field, in both languages", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const zh = await changeAccount(t, auth, { newPassword: "x" });
  assert.equal(zh.status, 400);
  const zhBody = await zh.json();
  assert.equal(zhBody.error, "password_too_short");
  assert.equal(zhBody.message, "密码至少需要 12 个字符");
  assert.deepEqual(zhBody.data.fields, { newPassword: "password_too_short" });

  const en = await changeAccount(t, auth, { newPassword: "elevenchars" }, "en-US");
  assert.equal((await en.json()).message, "The password needs at least 12 characters");
  // Twelve characters are enough.
  const twelve = await changeAccount(t, auth, { newPassword: "twelve-chars" });
  assert.equal(twelve.status, 200);
});

Deno.test("account change: usernames over 50 characters or with / <> or spaces are refused by rule", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  for (const name of ["a".repeat(101), "a".repeat(51), "a/b", "<b>", "my admin"]) {
    const res = await changeAccount(t, auth, { newUsername: name }, "en-US");
    const body = await res.json();
    assert.equal(res.status, 400, name);
    assert.equal(body.error, "username_invalid", name);
    assert.equal(
      body.message,
      "A username has 1-50 characters: letters, digits, underscores (_), dots (.) and hyphens (-)",
    );
    assert.deepEqual(body.data.fields, { newUsername: "username_invalid" });
  }
  const okRes = await changeAccount(t, auth, { newUsername: "ops.admin_2-x" });
  assert.equal(okRes.status, 200);
});

Deno.test("account change: the current username and no new password is nothing to change; sessions stay", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const res = await changeAccount(t, auth, { newUsername: ADMIN.username });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error, "nothing_to_change");
  assert.equal(await t.statusOf("GET", "/api/test/admin-token", auth), 200, "session kept");
});

Deno.test("account change: a wrong current password is named at its field", async () => {
  await using t = await createTestApp();
  const res = await t.request(URL, {
    method: "POST",
    auth: await t.adminAuth(),
    json: { currentPassword: "not-the-password", newPassword: "another-long-password" },
  });
  assert.equal(res.status, 401);
  const body = await res.json();
  assert.equal(body.error, "wrong_current_password");
  assert.deepEqual(body.data.fields, { currentPassword: "wrong_current_password" });
});

Deno.test("first start: a short ADMIN_PASSWORD keeps the server from starting, with the reason", async () => {
  const message = await startFailure({ ADMIN_PASSWORD: "short-pw" });
  assert.match(message, /exited early/);
  assert.match(message, /ADMIN_PASSWORD: The password needs at least 12 characters/);
  assert.match(message, /ADMIN_PASSWORD: 密码至少需要 12 个字符/);
});
