/**
 * Mount management (`/admin/mount-management`, client/features/mounts): the mount table, the
 * create/edit dialog and the delete confirmation.
 */
import type { Locator, Page } from "@playwright/test";

export class MountManagementPage {
  readonly heading: Locator;
  readonly createButton: Locator;
  readonly table: Locator;
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Mount management" });
    this.createButton = page.getByRole("button", { name: "Create mount" });
    this.table = page.getByRole("table", { name: "Mount points" });
    this.form = page.getByRole("dialog", { name: /^(Create mount|Edit mount)/ });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/mount-management");
    await this.heading.waitFor();
  }

  /** A field of the open dialog by its label. */
  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  /** Saves the dialog. */
  async save(): Promise<void> {
    await this.form.getByRole("button", { name: "Save" }).click();
  }

  /** The table row of a mount, by its name. */
  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name }) });
  }

  /** The enable switch of a mount. */
  toggle(name: string): Locator {
    return this.page.getByRole("switch", { name: `Enabled: ${name}` });
  }
}
