/**
 * The admin account form: the password rule (12 characters at least), the username rule (1-50
 * letters, digits, `_ . -`) and "nothing to change" for the current username, each shown at
 * its field or at the top of the form, in both languages; a refused change keeps the session.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, loginAdmin, test, type TestServer } from "./fixtures.ts";
import { newAdminPage } from "./pages/test_data.ts";
import { AccountPage } from "./pages/account_page.ts";

/**
 * Opens the account form as the admin of `server` (a fresh context, English unless `locale`),
 * runs `fn` on it and closes the context.
 */
async function onAccountForm(
  browser: Browser,
  server: TestServer,
  fn: (account: AccountPage, page: Page, token: string) => Promise<void>,
  locale?: "zh-CN",
) {
  const token = await loginAdmin(server);
  const { context, page } = await newAdminPage(browser, token, {
    baseURL: server.url,
    locale,
    viewport: locale ? { width: 1280, height: 800 } : undefined,
  });
  try {
    const account = new AccountPage(page);
    if (locale) account.inLanguage(locale);
    await account.goto();
    await fn(account, page, token);
  } finally {
    await context.close();
  }
}

test("a one-character password is refused at its field, in Chinese, and nobody is logged out", async ({ browser, isolatedServer }) => {
  await onAccountForm(browser, isolatedServer, async (account, page) => {
    await account.currentPassword.fill("cubby-test-admin-pw");
    await account.newPassword.fill("x");
    await account.confirmPassword.fill("x");
    await account.submit.click();
    await expect(account.newPassword).toHaveAttribute("aria-invalid", "true");
    await expect(account.newPassword).toHaveAccessibleDescription(/密码至少需要 12 个字符/);
    await expect(account.newPassword).toBeFocused();
    await expect(page.getByText("账户已更新")).toHaveCount(0);
  }, "zh-CN");
});

test("usernames: over 50 characters or with / < > and spaces are refused by the rule", async ({ browser, isolatedServer }) => {
  await onAccountForm(browser, isolatedServer, async (account) => {
    await account.currentPassword.fill("cubby-test-admin-pw");
    for (const name of ["a".repeat(101), "a/b", "<b>", "my admin"]) {
      await account.newUsername.fill(name);
      await account.submit.click();
      await expect(account.newUsername).toHaveAccessibleDescription(
        /A username has 1-50 characters: letters, digits, underscores \(_\), dots \(\.\) and hyphens \(-\)/,
      );
    }
  });
});

test("the current username with no new password is nothing to change, and the session stays", async ({ browser, isolatedServer }) => {
  await onAccountForm(browser, isolatedServer, async (account, page, token) => {
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
  });
});

test("a wrong current password is shown at that field", async ({ browser, isolatedServer }) => {
  await onAccountForm(browser, isolatedServer, async (account) => {
    await account.currentPassword.fill("not-the-password");
    await account.newPassword.fill("a-long-new-password");
    await account.confirmPassword.fill("a-long-new-password");
    await account.submit.click();
    await expect(account.currentPassword).toHaveAttribute("aria-invalid", "true");
    await expect(account.currentPassword).toHaveAccessibleDescription(
      "Current password is incorrect",
    );
  });
});
