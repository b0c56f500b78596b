/** The upload page (`/upload`): its file picker, its start button and the queue of files. */
import type { Locator } from "@playwright/test";
import { expect } from "../fixtures.ts";
import { PageObject } from "./page_object.ts";

/** The upload page once a storage is chosen; specs extend it with what they do there. */
export class UploadPage extends PageObject {
  readonly fileInput = this.page.getByLabel("Files to upload");
  readonly startButton = this.page.getByRole("button", { name: /^Start upload/ });
  readonly queue = this.page.getByRole("region", { name: "Files" });

  async goto(): Promise<void> {
    await this.page.goto("/upload");
    await this.page.getByRole("heading", { level: 1, name: "Upload files" }).waitFor();
    await expect(this.page.getByLabel("Storage", { exact: true })).toHaveValue(/.+/);
  }

  /** The queue's row of file `name`. */
  item(name: string): Locator {
    return this.queue.getByRole("listitem").filter({ hasText: name });
  }

  /** The share link of a finished item. */
  shareLink(name: string): Locator {
    return this.item(name).getByRole("textbox", { name: "Share link" });
  }
}
