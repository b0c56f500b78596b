/**
 * Logging in and out (docs/PRODUCT.md §2.2, §5.5), and API keys from creation in
 * Key management to a real API call and a key login that sees only what the key allows.
 */
import { ADMIN, expect, test } from "./fixtures.ts";
import { LoginPage } from "./pages/login_page.ts";
import { AdminLayout } from "./pages/admin_layout.ts";
import { KeyManagementPage } from "./pages/key_management_page.ts";
import { TextManagementPage } from "./pages/text_management_page.ts";
import { newContext, newVisitorPage, uniqueSlug } from "./pages/test_data.ts";

test.use({ locale: "en-US" });

/** The known-device token the app keeps in localStorage, or null. */
function storedDeviceToken(page: import("@playwright/test").Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem("cubby.device"));
}

/** The admin session token the app keeps in localStorage, or null. */
function storedAdminToken(page: import("@playwright/test").Page): Promise<string | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem("cubby.auth");
    return raw ? (JSON.parse(raw).adminToken as string | null) : null;
  });
}

test("admin logs in (after a wrong password) and out through the UI", async ({ page, request }) => {
  const login = new LoginPage(page);
  const admin = new AdminLayout(page);

  // Logged out, an admin page sends you to the login with a way back.
  await page.goto("/admin/key-management");
  await expect(login.heading).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login\?redirect=%2Fadmin%2Fkey-management$/);

  await login.loginWithPassword(ADMIN.username, "definitely-not-the-password");
  await expect(login.error).toHaveText("Invalid username or password");
  await expect(login.heading).toBeVisible();
  await expect(admin.sidebar).toHaveCount(0);

  await login.loginWithPassword(ADMIN.username, ADMIN.password);
  // Back where the redirect query pointed, with the admin sidebar.
  await expect(page).toHaveURL(/\/admin\/key-management$/);
  await expect(new KeyManagementPage(page).heading).toBeVisible();
  await expect(admin.sidebar).toBeVisible();
  await expect(admin.user).toContainText(ADMIN.username);
  await expect(admin.user).toContainText("Administrator");

  // /admin lands on the dashboard for the admin.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  for (const name of ["Dashboard", "Text management", "Key management", "Account"]) {
    await expect(admin.module(name)).toBeVisible();
  }

  const token = await storedAdminToken(page);
  expect(token).toBeTruthy();
  // The login also made this browser a known device (strangers' failures never slow it).
  const device = await storedDeviceToken(page);
  expect(device).toMatch(/^[\w-]+\.\d+\.[\w-]+$/);

  await admin.logout();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(login.heading).toBeVisible();
  await expect(page.getByRole("status").getByText("You have logged out")).toBeVisible();
  expect(await storedAdminToken(page)).toBeNull();
  expect(await storedDeviceToken(page)).toBe(device);
  // The session is revoked on the server too.
  const check = await request.get("/api/test/admin-token", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(check.status()).toBe(401);

  // Admin pages redirect to the login again, remembering where you wanted to go.
  await page.goto("/admin/text-management");
  await expect(page).toHaveURL(/\/admin\/login\?redirect=%2Fadmin%2Ftext-management$/);
  await expect(login.heading).toBeVisible();
  await expect(admin.sidebar).toHaveCount(0);

  // The next login presents the device token and keeps the fresh one it gets back.
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/admin/login"));
  await login.loginWithPassword(ADMIN.username, ADMIN.password);
  expect((await sent).postDataJSON().device_token).toBe(device);
  await expect(page).toHaveURL(/\/admin\/text-management$/);
  const renewed = await storedDeviceToken(page);
  expect(renewed).toMatch(/^[\w-]+\.\d+\.[\w-]+$/);
  expect(renewed).not.toBe(device);
});

test("an API key made in Key management works for the API and for logging in", async ({ browser, request, adminToken }) => {
  const keyName = uniqueSlug("e2e-key");
  const admin = await newContext(browser, { adminToken });
  let apiKey = "";
  try {
    await admin.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await admin.newPage();
    const keys = new KeyManagementPage(page);
    await keys.goto();

    await keys.createButton.click();
    await expect(keys.createDialog).toBeVisible();
    await keys.nameInput.fill(keyName);
    // A new key starts with text permission only.
    await expect(keys.permission("Text")).toBeChecked();
    await expect(keys.permission("Files")).not.toBeChecked();
    await expect(keys.permission("Mount: view")).not.toBeChecked();
    // A custom key shorter than 32 characters could be guessed: the field says so.
    await keys.customKeyToggle.check();
    await keys.customKeyInput.fill("short_key-123");
    await keys.createSubmit.click();
    await expect(keys.createDialog).toContainText("Use at least 32 characters");
    await expect(keys.customKeyInput).toHaveAttribute("aria-invalid", "true");
    await keys.customKeyToggle.uncheck();
    await keys.createSubmit.click();

    // The full key, shown once.
    await expect(keys.createdDialog).toBeVisible();
    await expect(keys.createdDialog).toContainText("This is the only time the full key is shown.");
    await expect(keys.createdKey).not.toHaveValue("");
    apiKey = await keys.createdKey.inputValue();
    await keys.copyKeyButton.click();
    await expect(keys.createdDialog.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);

    await keys.doneButton.click();
    await expect(keys.createdDialog).toBeHidden();
    const row = keys.row(keyName);
    await expect(row).toBeVisible();
    await expect(row).toContainText("Text");
    await expect(row).toContainText("Active");
    // The table only shows it masked.
    await expect(row).not.toContainText(apiKey);
  } finally {
    await admin.close();
  }

  // A real API call with the key.
  const slug = uniqueSlug("by-key");
  const res = await request.post("/api/paste", {
    headers: { authorization: `ApiKey ${apiKey}` },
    data: { content: "Made with an API key.", slug },
  });
  expect(res.status()).toBe(201);
  expect(await res.json()).toMatchObject({ success: true, data: { slug } });
  // The key has no admin rights.
  const keysList = await request.get("/api/admin/api-keys", {
    headers: { authorization: `ApiKey ${apiKey}` },
  });
  expect([401, 403]).toContain(keysList.status());

  // Logging in with the key: text management, but no key management.
  const visitor = await newVisitorPage(browser);
  try {
    const page = visitor.page;
    const login = new LoginPage(page);
    await login.goto();

    await login.loginWithApiKey("not-a-real-key-123456");
    await expect(login.error).toHaveText("API key verification failed");

    await login.loginWithApiKey(apiKey);
    const texts = new TextManagementPage(page);
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    await expect(texts.heading).toBeVisible();
    // The key sees its own share.
    await expect(texts.row(slug)).toBeVisible();

    const layout = new AdminLayout(page);
    await expect(layout.user).toContainText(keyName);
    await expect(layout.user).toContainText("API key");
    await expect(layout.module("Text management")).toBeVisible();
    await expect(layout.module("Account")).toBeVisible();
    await expect(layout.module("Key management")).toHaveCount(0);
    await expect(layout.module("Dashboard")).toHaveCount(0);

    // Key management by URL sends the key user to their landing module instead.
    await page.goto("/admin/key-management");
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    await expect(texts.heading).toBeVisible();
    await expect(new KeyManagementPage(page).heading).toHaveCount(0);
  } finally {
    await visitor.context.close();
  }
});
