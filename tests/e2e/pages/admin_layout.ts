/** The admin area's chrome (client/features/admin/AdminLayout.tsx): module sidebar and logout. */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";
import { paths } from "../../../shared/app_paths.ts";

const isAdminPage = (p: unknown): p is string =>
  typeof p === "string" && p.startsWith("/admin/") && p !== paths.login;

/** Every admin page's path but the login, in the order of the app's path table. */
export const ADMIN_PAGES: string[] = Object.values<unknown>(paths).filter(isAdminPage);

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
