/**
 * Settings (docs/PRODUCT.md §1, §2.1, §3.7; issue 5): each settings screen saves and applies. Site
 * settings change the tab title at once and the <title> of server-rendered share pages; the footer
 * Markdown shows on public pages but not on admin; the announcement can be dismissed for good and
 * shows again when it changes; the favicon link follows; custom head scripts run under the CSP; the
 * max upload size shows on /upload; preview lists change a file's preview. Settings are global, so
 * every test runs on a server of its own.
 */
import type { Browser, Locator } from "@playwright/test";
import { PageObject } from "./pages/page_object.ts";
import { expect, loginAdmin, test, type TestServer } from "./fixtures.ts";
import { LoginPage } from "./pages/login_page.ts";
import { TEST_ADMIN } from "../helpers/server.ts";

// Each test starts a server of its own and walks through several pages.
test.describe.configure({ timeout: 90_000 });

/** One settings screen: its form, fields by label, the save button. */
class SettingsScreen extends PageObject {
  readonly form = this.page.locator("form.settings-form");
  readonly save = this.form.getByRole("button", { name: "Save" });
  readonly toast = this.page.locator(".toaster").getByText("Settings saved");

  async goto(group: "global" | "preview" | "webdav" | "site"): Promise<void> {
    await this.page.goto(`/admin/settings/${group}`);
    await this.form.waitFor();
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  /** Saves, waits for the server's answer, then for the toast. */
  async saveAndConfirm(): Promise<void> {
    const saved = this.page.waitForResponse((r) =>
      r.request().method() === "PUT" && r.url().includes("/api/admin/settings/group/")
    );
    await this.save.click();
    expect((await saved).status()).toBe(200);
    await expect(this.toast.first()).toBeVisible();
  }
}

/** A browser context on `server`, logged in as the admin through the login page. */
async function adminSession(browser: Browser, server: TestServer) {
  const context = await browser.newContext({ baseURL: server.url, locale: "en-US" });
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto("/admin/settings/site");
  await login.loginWithPassword(TEST_ADMIN.username, TEST_ADMIN.password);
  await page.waitForURL("**/admin/settings/site");
  return { context, page, settings: new SettingsScreen(page) };
}

async function api(server: TestServer, token: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });
  const body = await res.json();
  if (!body.success) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Creates a paste on `server` as the admin; returns its view. */
function postPaste(server: TestServer, token: string, content: string) {
  return api(server, token, "/paste", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ content }),
  });
}

test("site settings apply at once, on server-rendered pages, and the announcement stays dismissed", async ({ browser, isolatedServer }) => {
  const server = isolatedServer;
  const token = await loginAdmin(server);
  const paste = await postPaste(server, token, "settings e2e");
  const { context, page, settings } = await adminSession(browser, server);
  try {
    await expect(page).toHaveTitle("Site settings - Cubby");
    await settings.field("Site title").fill("Acme Drop");
    const icon =
      "data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnLz4=";
    await settings.field("Favicon URL").fill(icon);
    await settings.field("Footer (Markdown)").fill("Made by **Acme** <script>bad()</script>");
    await settings.field("Show the announcement").check();
    await settings.field("Announcement (Markdown)").fill("Maintenance *tonight*");
    await settings.field("Custom head").fill("<script>window.__customHead = 42</script>");
    await settings.saveAndConfirm();

    // At once, in this tab: title, brand, favicon; no footer on admin pages.
    await expect(page).toHaveTitle("Site settings - Acme Drop");
    await expect(page.locator(".topnav-title")).toHaveText("Acme Drop");
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", icon);
    await expect(page.locator("footer.site-footer")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Announcement" })).toHaveCount(0);

    // A public page reached in the app: footer Markdown and the announcement.
    await page.getByRole("link", { name: "Home", exact: true }).click();
    await expect(page).toHaveTitle("Online clipboard - Acme Drop");
    const footer = page.locator("footer.site-footer");
    await expect(footer.locator("strong")).toHaveText("Acme");
    await expect(footer).not.toContainText("bad()");
    const banner = page.getByRole("region", { name: "Announcement" });
    await expect(banner.locator("em")).toHaveText("tonight");

    // The server-rendered share page carries the new title, icon and footer in its HTML.
    const html = await (await page.request.get(`/paste/${paste.slug}`, {
      headers: { "accept-language": "en-US" },
    })).text();
    expect(html).toContain("<title>Text share - Acme Drop</title>");
    expect(html).toContain(`<link rel="icon" href="${icon}">`);
    expect(html).toContain("Made by <strong>Acme</strong>");
    await page.goto(`/paste/${paste.slug}`);
    await expect(page).toHaveTitle("Text share - Acme Drop");
    await expect(footer.locator("strong")).toHaveText("Acme");
    // Custom head is applied as configured, and its script runs under the CSP (nonce).
    await expect.poll(() =>
      page.evaluate(() =>
        (globalThis as { __customHead?: number })
          .__customHead
      )
    ).toBe(42);

    // "Don't show again" holds across reloads...
    await banner.getByRole("button", { name: "Don't show again" }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.locator("footer.site-footer strong")).toHaveText("Acme");
    await expect(page.getByRole("region", { name: "Announcement" })).toHaveCount(0);

    // ...until the announcement changes.
    await settings.goto("site");
    await settings.field("Announcement (Markdown)").fill("New release **2.0**");
    await settings.saveAndConfirm();
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Announcement" }).locator("strong"))
      .toHaveText("2.0");
    // The close button hides it for this page load only.
    await page.getByRole("button", { name: "Close the announcement" }).click();
    await expect(page.getByRole("region", { name: "Announcement" })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("region", { name: "Announcement" })).toBeVisible();

    // Another visitor (no cache) gets it all from the server.
    const visitor = await browser.newContext({ baseURL: server.url, locale: "en-US" });
    const anon = await visitor.newPage();
    await anon.goto(`/paste/${paste.slug}`);
    await expect(anon).toHaveTitle("Text share - Acme Drop");
    await expect(anon.getByRole("region", { name: "Announcement" })).toBeVisible();
    await visitor.close();
  } finally {
    await context.close();
  }
});

test("global, preview and WebDAV settings validate, save and apply", async ({ browser, isolatedServer }) => {
  const server = isolatedServer;
  const token = await loginAdmin(server);
  const { context, page, settings } = await adminSession(browser, server);
  try {
    await settings.goto("global");
    await expect(page).toHaveTitle("Global settings - Cubby");
    const size = settings.field("Max upload size");
    await size.fill("0");
    await settings.save.click();
    await expect(page.getByText("Enter a whole number from 1 to 1048576")).toBeVisible();
    await expect(size).toBeFocused();
    await expect(size).toHaveAttribute("aria-invalid", "true");
    await size.fill("2");
    await settings.field("Unit").selectOption("GB");
    await settings.field("Serve new file shares through this server").uncheck();
    await settings.field("Proxy link signature lifetime").fill("600");
    await settings.saveAndConfirm();
    await page.goto("/upload");
    await expect(page.getByText("Max file size: 2 GB")).toBeVisible();
    await settings.goto("global");
    await expect(settings.field("Proxy link signature lifetime")).toHaveValue("600");
    await expect(settings.field("Serve new file shares through this server")).not.toBeChecked();

    // Preview lists: a .cubbylog file has no preview until its extension is a text type.
    const fd = new FormData();
    fd.set("file", new Blob(["hello preview lists"]), "notes.cubbylog");
    const file = await api(server, token, "/upload", { method: "POST", body: fd });
    await page.goto(`/file/${file.slug}`);
    await expect(page.getByText("There is no preview for this file type.")).toBeVisible();
    await settings.goto("preview");
    const text = settings.field("Text and code");
    await text.fill("txt, md, .CubbyLog");
    await settings.saveAndConfirm();
    await expect(text).toHaveValue("txt, md, cubbylog");
    await page.goto(`/file/${file.slug}`);
    await expect(page.getByText("hello preview lists")).toBeVisible();
    await settings.goto("preview");
    await page.getByRole("button", { name: "Restore default: Text and code" }).click();
    await settings.saveAndConfirm();
    await expect(text).toHaveValue(/^txt, text, log,/);

    await settings.goto("webdav");
    await settings.field("WebDAV upload mode").selectOption("multipart");
    await settings.saveAndConfirm();
    await page.reload();
    await expect(settings.field("WebDAV upload mode")).toHaveValue("multipart");
    const stored = await api(server, token, "/admin/settings?group=3");
    expect(stored).toEqual([{ key: "webdav_upload_mode", group: 3, value: "multipart" }]);
  } finally {
    await context.close();
  }
});

test("the environment switcher shows only for admins with ?showEnvSwitcher", async ({ browser, isolatedServer }) => {
  const anonContext = await browser.newContext({ baseURL: isolatedServer.url, locale: "en-US" });
  const anon = await anonContext.newPage();
  await anon.goto("/?showEnvSwitcher");
  await expect(anon.getByRole("heading", { name: "Online clipboard" })).toBeVisible();
  await expect(anon.getByRole("complementary", { name: "API environment" })).toHaveCount(0);
  await anonContext.close();

  const { context, page } = await adminSession(browser, isolatedServer);
  try {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Online clipboard" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "API environment" })).toHaveCount(0);
    await page.goto("/?showEnvSwitcher");
    const panel = page.getByRole("complementary", { name: "API environment" });
    await expect(panel).toContainText(isolatedServer.url);
    const input = panel.getByLabel("API base URL");
    await input.fill("ftp://nope");
    await panel.getByRole("button", { name: "Switch", exact: true }).click();
    await expect(panel.getByText("Enter an http or https address")).toBeVisible();
    // Pointing it at this same server under another name keeps the app working.
    const other = isolatedServer.url.replace("127.0.0.1", "localhost");
    await input.fill(other + "/");
    await panel.getByRole("button", { name: "Switch", exact: true }).click();
    await expect(panel).toContainText(other);
    expect(await page.evaluate(() => localStorage.getItem("cubby.apiBase"))).toBe(other);
    await panel.getByRole("button", { name: "Use this site" }).click();
    await expect(panel).toContainText(isolatedServer.url);
    expect(await page.evaluate(() => localStorage.getItem("cubby.apiBase"))).toBeNull();
    await panel.getByRole("button", { name: "Hide the environment switcher" }).click();
    await expect(panel).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("the top bar's source link is a site setting: hidden when empty, http(s) only", async ({ browser, isolatedServer }) => {
  const server = isolatedServer;
  const token = await loginAdmin(server);
  const paste = await postPaste(server, token, "source link e2e");
  const { context, page, settings } = await adminSession(browser, server);
  const source = page.getByRole("link", { name: "Source code (opens in a new tab)" });
  try {
    await expect(page.locator(".topnav-title")).toBeVisible();
    await expect(source).toHaveCount(0);
    const field = settings.field("Source code link");
    await field.fill("javascript:alert(1)");
    await settings.save.click();
    await expect(page.getByText("Only http or https URLs are accepted")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(source).toHaveCount(0);

    await field.fill("https://git.example.com/acme/cubby");
    await settings.saveAndConfirm();
    await expect(source).toHaveAttribute("href", "https://git.example.com/acme/cubby");
    // A server-rendered share page has it in its HTML, and in zh-CN under the zh-CN label.
    const html = await (await page.request.get(`/paste/${paste.slug}`)).text();
    expect(html).toContain('href="https://git.example.com/acme/cubby"');
    const zh = await browser.newContext({ baseURL: server.url, locale: "zh-CN" });
    const zhPage = await zh.newPage();
    await zhPage.goto(`/paste/${paste.slug}`);
    await expect(zhPage.getByRole("link", { name: "源代码（在新标签页中打开）" }))
      .toHaveAttribute("href", "https://git.example.com/acme/cubby");
    await zh.close();

    await settings.goto("site");
    await field.fill("");
    await settings.saveAndConfirm();
    await expect(source).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("preview lists say what they will be saved as, and an over-long entry why it is refused", async ({ browser, isolatedServer }) => {
  const { context, page, settings } = await adminSession(browser, isolatedServer);
  try {
    await settings.goto("preview");
    const text = settings.field("Text and code");
    await text.fill("j p g");
    await expect(text).toHaveAccessibleDescription(/Will be saved as: j, p, g \(3 extensions\)/);
    // Only white space differs: nothing to announce.
    await text.fill("txt,md");
    await expect(page.getByText(/Will be saved as/)).toHaveCount(0);

    // The field holds at most 4000 characters: one entry that long is no extension.
    await text.fill("a".repeat(5000));
    await settings.save.click();
    await expect(text).toHaveAttribute("aria-invalid", "true");
    await expect(text).toHaveAccessibleDescription(
      new RegExp(`An extension has at most 32 characters; "a{24}…" has 4000`),
    );
    await expect(text).not.toHaveAccessibleDescription(/comma/);
  } finally {
    await context.close();
  }
});
