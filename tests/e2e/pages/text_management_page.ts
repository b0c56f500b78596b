/** Text management (`/admin/text-management`): the share table, search and delete. */
import type { Locator, Page } from "@playwright/test";

export class TextManagementPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly table: Locator;
  readonly pageSize: Locator;
  readonly noMatches: Locator;
  readonly confirmDialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Text management" });
    this.search = page.getByRole("searchbox", { name: "Search shares" });
    this.table = page.getByRole("table", { name: "Text shares" });
    this.pageSize = page.getByRole("combobox", { name: "Per page" });
    this.noMatches = page.getByText("No shares match your search.");
    this.confirmDialog = page.getByRole("alertdialog", { name: "Delete shares?" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/text-management");
    await this.heading.waitFor();
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
