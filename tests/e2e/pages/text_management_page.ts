/** Text management (`/admin/text-management`): the share table, search and delete. */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class TextManagementPage extends PageObject {
  readonly heading = this.h1("Text management");
  readonly search = this.page.getByRole("searchbox", { name: "Search shares" });
  readonly table = this.page.getByRole("table", { name: "Text shares" });
  readonly pageSize = this.page.getByRole("combobox", { name: "Per page" });
  readonly noMatches = this.page.getByText("No shares match your search.");
  readonly confirmDialog = this.page.getByRole("alertdialog", { name: "Delete shares?" });

  goto(): Promise<void> {
    return this.gotoAndWait("/admin/text-management", this.heading);
  }

  /** The table row of a share, found by its link text (the slug). */
  row(slug: string): Locator {
    return this.table.getByRole("row").filter({
      has: this.page.getByRole("link", { name: slug, exact: true }),
    });
  }

  /** Every body row (the header row has no checkbox named "Select …" for a share). */
  rows(): Locator {
    return this.table.getByRole("row").filter({
      has: this.page.getByRole("checkbox", { name: /^Select (?!all)/ }),
    });
  }

  async showPerPage(n: 10 | 20 | 50 | 100): Promise<void> {
    await this.pageSize.selectOption(String(n));
  }

  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
  }

  /** Deletes one share with its row's Delete button and confirms. */
  async deleteShare(slug: string): Promise<void> {
    await this.page.getByRole("button", { name: `Delete ${slug}`, exact: true }).click();
    await this.confirmDialog.getByRole("button", { name: "Delete", exact: true }).click();
  }
}
