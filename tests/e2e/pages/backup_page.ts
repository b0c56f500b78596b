/**
 * The backup screen (`/admin/backup`): the "Create a backup" panel (module checkboxes, select
 * all, download) and the "Restore a backup" panel (file, what it holds, mode, results).
 */
import { Buffer } from "node:buffer";
import type { Download, Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class BackupPage extends PageObject {
  readonly heading = this.h1("Data backup");
  readonly createPanel = this.page.getByRole("region", { name: "Create a backup" });
  readonly selectAll = this.createPanel.getByRole("checkbox", { name: "Select all" });
  readonly downloadButton = this.createPanel.getByRole("button", { name: "Download backup" });
  readonly createError = this.createPanel.getByRole("alert");
  readonly restorePanel = this.page.getByRole("region", { name: "Restore a backup" });
  readonly fileInput = this.restorePanel.getByLabel("Backup file");
  readonly info = this.restorePanel.getByTestId("backup-info");
  readonly restoreButton = this.restorePanel.getByRole("button", { name: "Restore", exact: true });
  readonly restoreError = this.restorePanel.locator(".form-error");
  readonly confirmDialog = this.page.getByRole("alertdialog", {
    name: "Overwrite the current data?",
  });
  readonly report = this.restorePanel.getByTestId("restore-report");

  goto(): Promise<void> {
    return this.gotoAndWait("/admin/backup", this.heading);
  }

  /** A module checkbox of the create panel, by its label ("Text management", …). */
  module(label: string): Locator {
    return this.createPanel.getByRole("checkbox", { name: label, exact: true });
  }

  /** Clicks "Download backup" and resolves to the browser's download. */
  async download(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.downloadButton.click(),
    ]);
    return download;
  }

  /** Chooses a file for the restore panel, from disk or from memory. */
  async chooseFile(file: string | { name: string; text: string }): Promise<void> {
    await this.fileInput.setInputFiles(
      typeof file === "string"
        ? file
        : { name: file.name, mimeType: "application/json", buffer: Buffer.from(file.text) },
    );
  }

  /** A restore mode radio ("Overwrite" or "Merge"). */
  mode(label: "Overwrite" | "Merge"): Locator {
    return this.restorePanel.getByRole("radio", { name: label });
  }

  /** The cells (restored, skipped, removed) of one module's row in the results. */
  reportRow(label: string): Locator {
    return this.report.getByRole("row", { name: new RegExp(`^${label}`) }).locator("td");
  }

  /** The record count of one module in the file's summary. */
  infoCount(label: string): Locator {
    return this.info.getByRole("row", { name: new RegExp(`^${label}`) }).locator("td");
  }
}
