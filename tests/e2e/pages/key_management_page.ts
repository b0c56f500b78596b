/**
 * Key management (`/admin/key-management`): the key table, the create dialog and the dialog
 * that shows a new key once.
 */
import type { Locator, Page } from "@playwright/test";

export class KeyManagementPage {
  readonly heading: Locator;
  readonly createButton: Locator;
  readonly table: Locator;
  readonly createDialog: Locator;
  readonly nameInput: Locator;
  readonly expirySelect: Locator;
  readonly createSubmit: Locator;
  readonly createdDialog: Locator;
  readonly createdKey: Locator;
  readonly copyKeyButton: Locator;
  readonly doneButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Key management" });
    this.createButton = page.getByRole("button", { name: "Create key" });
    this.table = page.getByRole("table", { name: "API keys" });
    this.createDialog = page.getByRole("dialog", { name: "Create API key" });
    this.nameInput = this.createDialog.getByLabel("Key name");
    this.expirySelect = this.createDialog.getByLabel("Expires");
    this.createSubmit = this.createDialog.getByRole("button", { name: "Create", exact: true });
    this.createdDialog = page.getByRole("dialog", { name: "Key created" });
    this.createdKey = this.createdDialog.getByRole("textbox", { name: "Your new API key" });
    this.copyKeyButton = this.createdDialog.getByRole("button", { name: "Copy key" });
    this.doneButton = this.createdDialog.getByRole("button", { name: "Done" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/key-management");
    await this.heading.waitFor();
  }

  /** A permission checkbox of the create dialog, by its label ("Text", "Files", …). */
  permission(label: string): Locator {
    return this.createDialog.getByRole("checkbox", { name: label, exact: true });
  }

  /** The table row of a key, by its name. */
  row(name: string): Locator {
    return this.table.getByRole("row").filter({
      has: this.page.getByRole("rowheader", { name, exact: true }),
    });
  }
}
