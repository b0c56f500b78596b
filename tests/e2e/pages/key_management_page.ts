/**
 * Key management (`/admin/key-management`): the key table, the create dialog and the dialog
 * that shows a new key once.
 */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class KeyManagementPage extends PageObject {
  readonly heading = this.h1("Key management");
  readonly createButton = this.page.getByRole("button", { name: "Create key" });
  readonly table = this.page.getByRole("table", { name: "API keys" });
  readonly createDialog = this.page.getByRole("dialog", { name: "Create API key" });
  readonly nameInput = this.createDialog.getByLabel("Key name");
  readonly expirySelect = this.createDialog.getByLabel("Expires");
  readonly basePathInput = this.createDialog.getByLabel("Base path");
  readonly customKeyToggle = this.createDialog.getByLabel("Use a custom key");
  readonly customKeyInput = this.createDialog.getByLabel("Custom key", { exact: true });
  readonly createSubmit = this.createDialog.getByRole("button", { name: "Create", exact: true });
  readonly createdDialog = this.page.getByRole("dialog", { name: "Key created" });
  readonly createdKey = this.createdDialog.getByRole("textbox", { name: "Your new API key" });
  readonly copyKeyButton = this.createdDialog.getByRole("button", { name: "Copy key" });
  readonly doneButton = this.createdDialog.getByRole("button", { name: "Done" });

  goto(): Promise<void> {
    return this.gotoAndWait("/admin/key-management", this.heading);
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
