/** The login page (`/admin/login`): password or API-key tab, with the error shown in the form. */
import { PageObject } from "./page_object.ts";

export class LoginPage extends PageObject {
  readonly heading = this.h1("Log in");
  readonly passwordTab = this.page.getByRole("tab", { name: "Username and password" });
  readonly apiKeyTab = this.page.getByRole("tab", { name: "API key" });
  private readonly panel = this.page.getByRole("tabpanel");
  readonly username = this.panel.getByLabel("Username");
  readonly password = this.panel.getByLabel("Password", { exact: true });
  readonly apiKey = this.panel.getByLabel("API key", { exact: true });
  /** The submit button of the visible tab (the hidden panel's button is not counted). */
  readonly submit = this.panel.getByRole("button", { name: "Log in" });
  /** The error of the visible form (not a toast). */
  readonly error = this.panel.getByRole("alert");

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
