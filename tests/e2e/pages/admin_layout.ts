/** The admin area's chrome (client/features/admin/AdminLayout.tsx): module sidebar and logout. */
import type { Locator, Page } from "@playwright/test";

export class AdminLayout {
  readonly sidebar: Locator;
  readonly logoutButton: Locator;
  /** The "signed in as" line: user name and role badge. */
  readonly user: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole("navigation", { name: "Admin menu" });
    this.logoutButton = this.sidebar.getByRole("button", { name: "Log out" });
    this.user = page.locator(".admin-user");
  }

  /** A module link in the sidebar, e.g. "Text management". */
  module(name: string): Locator {
    return this.sidebar.getByRole("link", { name, exact: true });
  }

  async logout(): Promise<void> {
    await this.logoutButton.click();
  }
}
