/**
 * The messages of docs/PRODUCT.md §8.5 that a screen shows where they apply (issue 12, item 5),
 * each brought about with the real server: a key that grants nothing cannot log in
 * (`api_key_unauthorized`); stored credentials the server refuses for another reason than expiry
 * end the session with `auth_failed`; a save the server forbids says `no_update_permission`; a save
 * to a server that is down says `server_not_responding`. (`wrong_password_retry` is in
 * file_view.spec.ts; `permission_info_failed` and `content_over_server_limit` need a server or
 * proxy answering differently from Cubby and are covered by key_reply_test.ts and
 * save_errors_test.ts.)
 */
import { expect, sharedServerUrl, test } from "./fixtures.ts";
import { LoginPage } from "./pages/login_page.ts";
import { TextManagementPage } from "./pages/text_management_page.ts";
import { createApiKey } from "./pages/mount_data.ts";
import { asVisitor, createPaste, uniqueSlug } from "./pages/test_data.ts";
import { TEST_ADMIN } from "../helpers/server.ts";

test.use({ locale: "en-US" });

test("a key that grants nothing cannot log in: 'Invalid or unauthorised API key'", async ({ browser, request, adminToken }) => {
  const key = await createApiKey(request, adminToken, uniqueSlug("no-rights"), {}, "/");
  await asVisitor(browser, async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.loginWithApiKey(key);
    await expect(login.error).toHaveText("Invalid or unauthorised API key");
    await expect(login.heading).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("cubby.auth"))).toBeNull();
  });
});

test("stored credentials the server refuses end the session with 'Authentication failed'", async ({ browser }) => {
  // An admin login whose token got lost (an old or damaged copy in localStorage).
  const context = await browser.newContext({
    baseURL: sharedServerUrl(),
    locale: "en-US",
    storageState: {
      cookies: [],
      origins: [{
        origin: new URL(sharedServerUrl()).origin,
        localStorage: [{
          name: "cubby.auth",
          value: JSON.stringify({
            authType: "admin",
            adminToken: null,
            permissions: -1,
            lastValidated: null,
            userInfo: { id: "admin", name: "admin", basicPath: "/" },
          }),
        }],
      }],
    },
  });
  const page = await context.newPage();
  try {
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("status").getByText("Authentication failed, please log in again"))
      .toBeVisible();
    await expect(new LoginPage(page).heading).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login\?redirect=%2Fadmin%2Fdashboard$/);
    expect(await page.evaluate(() => localStorage.getItem("cubby.auth"))).toBeNull();
  } finally {
    await context.close();
  }
});

test("saving an edit the server forbids says 'No permission to update'", async ({ browser, request, adminToken }) => {
  const name = uniqueSlug("revoked");
  const key = await createApiKey(request, adminToken, name, { text: true }, "/");
  const slug = uniqueSlug("revoked-paste");
  await createPaste(request, `ApiKey ${key}`, { content: "before", slug });
  await asVisitor(browser, async ({ page }) => {
    await new LoginPage(page).goto();
    await new LoginPage(page).loginWithApiKey(key);
    const texts = new TextManagementPage(page);
    await expect(texts.heading).toBeVisible();
    await texts.row(slug).getByRole("button", { name: `Edit ${slug}` }).click();
    const dialog = page.getByRole("dialog", { name: `Edit share ${slug}` });
    await dialog.getByLabel("Content (Markdown)").fill("after");

    // Meanwhile the admin takes the key's text permission away.
    const keys = await (await request.get("/api/admin/api-keys", {
      headers: { authorization: `Bearer ${adminToken}` },
    })).json();
    const id = keys.data.find((k: { name: string }) => k.name === name).id;
    const revoke = await request.put(`/api/admin/api-keys/${id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { permissions: { text: false, webdav_read: true } },
    });
    expect(revoke.status()).toBe(200);

    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("No permission to update");
    await expect(dialog).toBeVisible();
  });
});

test("saving settings while the server is down says 'The server is not responding'", async ({ browser, isolatedServer }) => {
  const context = await browser.newContext({ baseURL: isolatedServer.url, locale: "en-US" });
  const page = await context.newPage();
  try {
    const login = new LoginPage(page);
    await login.goto("/admin/settings/site");
    await login.loginWithPassword(TEST_ADMIN.username, TEST_ADMIN.password);
    const form = page.locator("form.settings-form");
    await form.waitFor();
    await form.getByLabel("Site title", { exact: true }).fill("Never saved");
    await isolatedServer.kill9();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("alert")).toHaveText("The server is not responding");
  } finally {
    await context.close();
  }
});
