/**
 * Mount management (`/admin/mount-management`, client/features/mounts): the mount table, the
 * create/edit dialog and the delete confirmation.
 */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class MountManagementPage extends PageObject {
  readonly heading = this.h1("Mount management");
  readonly createButton = this.page.getByRole("button", { name: "Create mount" });
  readonly table = this.page.getByRole("table", { name: "Mount points" });
  readonly form = this.page.getByRole("dialog", { name: /^(Create mount|Edit mount)/ });

  goto(): Promise<void> {
    return this.gotoAndWait("/admin/mount-management", this.heading);
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
