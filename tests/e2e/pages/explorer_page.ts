/**
 * The mount explorer (`/mount-explorer/...`, client/features/explorer): toolbar, views, entry
 * menus, dialogs and panels, located the way a person finds them (roles and labels, English).
 */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class ExplorerPage extends PageObject {
  readonly heading = this.h1("Mount explorer");
  readonly crumbs = this.page.getByRole("navigation", { name: "Current folder" });
  readonly toolbar = this.page.getByRole("toolbar", { name: "Folder actions" });
  readonly fileInput = this.page.getByLabel("Files to upload");
  readonly uploadButton = this.toolbar.getByRole("button", { name: "Upload", exact: true });
  readonly newFolderButton = this.toolbar.getByRole("button", { name: "New folder" });
  readonly uploads = this.page.getByRole("region", { name: "Uploads" });
  readonly table = this.page.getByRole("table", { name: "Folder contents" });
  readonly gallery = this.page.locator(".explorer-gallery");
  readonly selection = this.page.getByRole("region", { name: "Selection" });
  readonly settingsButton = this.toolbar.getByRole("button", { name: "Gallery settings" });
  readonly settings = this.page.getByRole("region", { name: "Gallery settings" });
  readonly basketButton = this.toolbar.getByRole("button", { name: /^Basket/ });
  readonly basket = this.page.getByRole("region", { name: "File basket" });
  readonly tasksButton = this.toolbar.getByRole("button", { name: /^Tasks/ });
  readonly tasks = this.page.getByRole("region", { name: "Task manager" });
  readonly menu = this.page.getByRole("menu");
  readonly searchBox = this.page.getByRole("searchbox", { name: "Search file names" });
  readonly searchResults = this.page.getByRole("region", { name: "Search results" });

  /** Opens a folder by its virtual path ("/" for the root). */
  async goto(path: string): Promise<void> {
    const segments = path.split("/").filter(Boolean).map(encodeURIComponent);
    await this.page.goto(`/mount-explorer${segments.length ? "/" + segments.join("/") : ""}`);
    await this.heading.waitFor();
  }

  /** An entry (row, card or gallery item) by its exact name. */
  entry(name: string): Locator {
    return this.page.locator(`[data-path$="/${cssEscape(name)}"]`).filter({
      has: this.page.getByText(name, { exact: true }),
    });
  }

  /** The link that opens an entry. */
  entryLink(name: string): Locator {
    return this.entry(name).getByRole("link");
  }

  /** Opens an entry's menu with its actions button and picks `item`. */
  async act(name: string, item: string): Promise<void> {
    await this.entry(name).getByRole("button", { name: `Actions for ${name}` }).click();
    await this.menu.getByRole("menuitem", { name: item }).click();
  }

  /** Ticks an entry's checkbox. */
  async select(name: string): Promise<void> {
    await this.entry(name).getByRole("checkbox", { name: `Select ${name}` }).check();
  }

  /** Switches the view: "List", "Grid" or "Gallery". */
  async view(name: "List" | "Grid" | "Gallery"): Promise<void> {
    await this.page.getByRole("group", { name: "View" }).getByRole("button", { name }).click();
  }

  /** The dialog with this title. */
  dialog(name: string | RegExp): Locator {
    return this.page.getByRole("dialog", { name });
  }

  /** The progress bar of an uploading file. */
  uploadProgress(name: string): Locator {
    return this.page.getByRole("progressbar", { name: `Upload progress of ${name}` });
  }

  /** Cancels the upload of a file from its row in the upload list. */
  async cancelUpload(name: string): Promise<void> {
    await this.uploads.getByRole("listitem").filter({ hasText: name })
      .getByRole("button", { name: "Cancel" }).click();
  }
}

/** Escapes a value for a CSS attribute selector in double quotes. */
function cssEscape(value: string): string {
  return value.replace(/["\\]/g, "\\$&");
}
