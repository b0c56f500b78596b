/** The admin area's chrome (client/features/admin/AdminLayout.tsx): module sidebar and logout. */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class AdminLayout extends PageObject {
  readonly sidebar = this.page.getByRole("navigation", { name: "Admin menu" });
  readonly logoutButton = this.sidebar.getByRole("button", { name: "Log out" });
  /** The "signed in as" line: user name and role badge. */
  readonly user = this.page.locator(".admin-user");

  /** A module link in the sidebar, e.g. "Text management". */
  module(name: string): Locator {
    return this.sidebar.getByRole("link", { name, exact: true });
  }

  async logout(): Promise<void> {
    await this.logoutButton.click();
  }
}
