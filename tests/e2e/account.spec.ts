/**
 * The admin account form: the password rule (12 characters at least), the username rule (1-50
 * letters, digits, `_ . -`) and "nothing to change" for the current username, each shown at
 * its field or at the top of the form, in both languages; a refused change keeps the session.
 */
import { expect, loginAdmin, test } from "./fixtures.ts";
import { newAdminPage } from "./pages/test_data.ts";
import { AccountPage } from "./pages/account_page.ts";

test("a one-character password is refused at its field, in Chinese, and nobody is logged out", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  const { context, page } = await newAdminPage(browser, token, {
    baseURL: isolatedServer.url,
    locale: "zh-CN",
    viewport: { width: 1280, height: 800 },
  });
  try {
    const account = new AccountPage(page).inLanguage("zh-CN");
    await account.goto();
    await account.currentPassword.fill("cubby-test-admin-pw");
    await account.newPassword.fill("x");
    await account.confirmPassword.fill("x");
    await account.submit.click();
    await expect(account.newPassword).toHaveAttribute("aria-invalid", "true");
    await expect(account.newPassword).toHaveAccessibleDescription(/密码至少需要 12 个字符/);
    await expect(account.newPassword).toBeFocused();
    await expect(page.getByText("账户已更新")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("usernames: over 50 characters or with / < > and spaces are refused by the rule", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  const { context, page } = await newAdminPage(browser, token, { baseURL: isolatedServer.url });
  try {
    const account = new AccountPage(page);
    await account.goto();
    await account.currentPassword.fill("cubby-test-admin-pw");
    for (const name of ["a".repeat(101), "a/b", "<b>", "my admin"]) {
      await account.newUsername.fill(name);
      await account.submit.click();
      await expect(account.newUsername).toHaveAccessibleDescription(
        /A username has 1-50 characters: letters, digits, underscores \(_\), dots \(\.\) and hyphens \(-\)/,
      );
    }
  } finally {
    await context.close();
  }
});

test("the current username with no new password is nothing to change, and the session stays", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  const { context, page } = await newAdminPage(browser, token, { baseURL: isolatedServer.url });
  try {
    const account = new AccountPage(page);
    await account.goto();
    await account.currentPassword.fill("cubby-test-admin-pw");
    await account.newUsername.fill("admin");
    await account.submit.click();
    await expect(account.alert).toHaveText(
      "Nothing to change: enter a username different from the current one, or a new password",
    );
    await expect(page.getByText("Account updated")).toHaveCount(0);
    const check = await fetch(`${isolatedServer.url}/api/test/admin-token`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(check.status).toBe(200);
  } finally {
    await context.close();
  }
});

test("a wrong current password is shown at that field", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  const { context, page } = await newAdminPage(browser, token, { baseURL: isolatedServer.url });
  try {
    const account = new AccountPage(page);
    await account.goto();
    await account.currentPassword.fill("not-the-password");
    await account.newPassword.fill("a-long-new-password");
    await account.confirmPassword.fill("a-long-new-password");
    await account.submit.click();
    await expect(account.currentPassword).toHaveAttribute("aria-invalid", "true");
    await expect(account.currentPassword).toHaveAccessibleDescription(
      "Current password is incorrect",
    );
  } finally {
    await context.close();
  }
});
