/**
 * The mount explorer (`/mount-explorer/...`, client/features/explorer): toolbar, views, entry
 * menus, dialogs and panels, located the way a person finds them (roles and labels, English).
 */
import type { Locator, Page } from "@playwright/test";

export class ExplorerPage {
  readonly heading: Locator;
  readonly crumbs: Locator;
  readonly toolbar: Locator;
  readonly fileInput: Locator;
  readonly uploadButton: Locator;
  readonly newFolderButton: Locator;
  readonly uploads: Locator;
  readonly table: Locator;
  readonly gallery: Locator;
  readonly selection: Locator;
  readonly settingsButton: Locator;
  readonly settings: Locator;
  readonly basketButton: Locator;
  readonly basket: Locator;
  readonly tasksButton: Locator;
  readonly tasks: Locator;
  readonly menu: Locator;
  readonly searchBox: Locator;
  readonly searchResults: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Mount explorer" });
    this.crumbs = page.getByRole("navigation", { name: "Current folder" });
    this.toolbar = page.getByRole("toolbar", { name: "Folder actions" });
    this.fileInput = page.getByLabel("Files to upload");
    this.uploadButton = this.toolbar.getByRole("button", { name: "Upload", exact: true });
    this.newFolderButton = this.toolbar.getByRole("button", { name: "New folder" });
    this.uploads = page.getByRole("region", { name: "Uploads" });
    this.table = page.getByRole("table", { name: "Folder contents" });
    this.gallery = page.locator(".explorer-gallery");
    this.selection = page.getByRole("region", { name: "Selection" });
    this.settingsButton = this.toolbar.getByRole("button", { name: "Gallery settings" });
    this.settings = page.getByRole("region", { name: "Gallery settings" });
    this.basketButton = this.toolbar.getByRole("button", { name: /^Basket/ });
    this.basket = page.getByRole("region", { name: "File basket" });
    this.tasksButton = this.toolbar.getByRole("button", { name: /^Tasks/ });
    this.tasks = page.getByRole("region", { name: "Task manager" });
    this.menu = page.getByRole("menu");
    this.searchBox = page.getByRole("searchbox", { name: "Search file names" });
    this.searchResults = page.getByRole("region", { name: "Search results" });
  }

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

  /** Slows the browser's uploads so progress can be watched. */
  async throttleUploads(bytesPerSecond: number): Promise<void> {
    const cdp = await this.page.context().newCDPSession(this.page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  }
}

/** Escapes a value for a CSS attribute selector in double quotes. */
function cssEscape(value: string): string {
  return value.replace(/["\\]/g, "\\$&");
}
