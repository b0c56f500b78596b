/**
 * The backup screen (`/admin/backup`): the "Create a backup" panel (module checkboxes, select
 * all, download) and the "Restore a backup" panel (file, what it holds, mode, results).
 */
import { Buffer } from "node:buffer";
import type { Download, Locator, Page } from "@playwright/test";

export class BackupPage {
  readonly heading: Locator;
  readonly createPanel: Locator;
  readonly selectAll: Locator;
  readonly downloadButton: Locator;
  readonly createError: Locator;
  readonly restorePanel: Locator;
  readonly fileInput: Locator;
  readonly info: Locator;
  readonly restoreButton: Locator;
  readonly restoreError: Locator;
  readonly confirmDialog: Locator;
  readonly report: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Data backup" });
    this.createPanel = page.getByRole("region", { name: "Create a backup" });
    this.selectAll = this.createPanel.getByRole("checkbox", { name: "Select all" });
    this.downloadButton = this.createPanel.getByRole("button", { name: "Download backup" });
    this.createError = this.createPanel.getByRole("alert");
    this.restorePanel = page.getByRole("region", { name: "Restore a backup" });
    this.fileInput = this.restorePanel.getByLabel("Backup file");
    this.info = this.restorePanel.getByTestId("backup-info");
    this.restoreButton = this.restorePanel.getByRole("button", { name: "Restore", exact: true });
    this.restoreError = this.restorePanel.locator(".form-error");
    this.confirmDialog = page.getByRole("alertdialog", { name: "Overwrite the current data?" });
    this.report = this.restorePanel.getByTestId("restore-report");
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/backup");
    await this.heading.waitFor();
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
