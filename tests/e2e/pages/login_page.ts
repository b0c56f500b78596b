/** The login page (`/admin/login`): password or API-key tab, with the error shown in the form. */
import type { Locator, Page } from "@playwright/test";

export class LoginPage {
  readonly heading: Locator;
  readonly passwordTab: Locator;
  readonly apiKeyTab: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly apiKey: Locator;
  /** The submit button of the visible tab (the hidden panel's button is not counted). */
  readonly submit: Locator;
  /** The error of the visible form (not a toast). */
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Log in" });
    this.passwordTab = page.getByRole("tab", { name: "Username and password" });
    this.apiKeyTab = page.getByRole("tab", { name: "API key" });
    const panel = page.getByRole("tabpanel");
    this.username = panel.getByLabel("Username");
    this.password = panel.getByLabel("Password", { exact: true });
    this.apiKey = panel.getByLabel("API key", { exact: true });
    this.submit = panel.getByRole("button", { name: "Log in" });
    this.error = panel.getByRole("alert");
  }

  /** Opens the login page, optionally with the `redirect` query. */
  async goto(redirect?: string): Promise<void> {
    await this.page.goto(
      redirect ? `/admin/login?redirect=${encodeURIComponent(redirect)}` : "/admin/login",
    );
    await this.heading.waitFor();
  }

  /** Fills username and password and submits. */
  async loginWithPassword(username: string, password: string): Promise<void> {
    await this.passwordTab.click();
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Switches to the API-key tab, fills the key and submits. */
  async loginWithApiKey(key: string): Promise<void> {
    await this.apiKeyTab.click();
    await this.apiKey.fill(key);
    await this.submit.click();
  }
}
