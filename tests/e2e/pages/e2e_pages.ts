/**
 * End-to-end encrypted shares in the browser: the editor and the upload page with their
 * "End-to-end encryption" switch, and the share pages that decrypt (paste and file).
 */
import type { Download, Page } from "@playwright/test";
import { Buffer } from "node:buffer";
import { expect } from "../fixtures.ts";
import { HomePage } from "./home_page.ts";
import { PageObject } from "./page_object.ts";
import { UploadPage } from "./upload_page.ts";

/** The editor with its switch on. */
export class E2EHomePage extends HomePage {
  readonly e2eSwitch = this.page.getByLabel("End-to-end encryption");

  /** Writes `text` and creates an encrypted share; returns its link (with the key). */
  async createEncrypted(text: string, password = ""): Promise<string> {
    await this.goto();
    await this.e2eSwitch.check();
    await this.editor.click();
    await this.page.keyboard.insertText(text);
    if (password) await this.password.fill(password);
    return await this.create();
  }
}

/** The upload page with its switch on. */
export class E2EUploadPage extends UploadPage {
  readonly e2eSwitch = this.page.getByLabel("End-to-end encryption");
  readonly password = this.page.getByLabel("Password", { exact: true });

  /** Picks the storage config `id`. */
  async chooseStorage(id: string): Promise<void> {
    await this.page.getByLabel("Storage", { exact: true }).selectOption(id);
  }

  /**
   * Uploads a file (a path, or a name and its bytes) encrypted; returns the link with its key.
   * `timeout` covers the whole upload.
   */
  async uploadEncrypted(
    file: string | { name: string; mimeType: string; buffer: Uint8Array },
    name: string,
    { password = "", timeout = 60_000 } = {},
  ): Promise<string> {
    await this.e2eSwitch.check();
    if (password) await this.password.fill(password);
    await this.fileInput.setInputFiles(
      typeof file === "string" ? file : { ...file, buffer: Buffer.from(file.buffer) },
    );
    await this.startButton.click();
    await expect(this.shareLink(name)).toBeVisible({ timeout });
    return await this.shareLink(name).inputValue();
  }
}

/** An encrypted share's page (paste or file), as a visitor sees it. */
export class E2ESharePage extends PageObject {
  readonly badge = this.page.getByText("End-to-end encrypted", { exact: true }).first();
  readonly problem = this.page.getByRole("alert").filter({ hasText: "cannot be decrypted" });
  readonly passwordInput = this.page.getByLabel("Password", { exact: true });
  readonly decryptButton = this.page.getByRole("button", { name: "Decrypt" });
  readonly passwordError = this.page.locator("#e2e-password-error");
  readonly content = this.page.getByRole("region", { name: "Share content" });
  readonly fileTitle = this.page.getByRole("heading", { level: 1 });
  readonly downloadButton = this.page.getByRole("button", { name: "Download and decrypt" });
  readonly downloadStatus = this.page.locator(".e2e-download [role=status]");
  readonly downloadError = this.page.locator(".e2e-download [role=alert]");

  /** Opens a link and waits for the page to have hydrated (the badge shows either way). */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.badge.waitFor();
  }

  async unlock(password: string): Promise<void> {
    await this.passwordInput.fill(password);
    await this.decryptButton.click();
  }

  /** Waits until the service worker is active: downloads stream through it. */
  async workerReady(): Promise<void> {
    await this.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  }

  /** Clicks "Download and decrypt" and returns the browser's download. */
  async download(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download", { timeout: 120_000 }),
      this.downloadButton.click(),
    ]);
    return download;
  }
}

/** Everything the page's origin keeps: caches, IndexedDB, local and session storage. */
export async function storedByOrigin(page: Page): Promise<string> {
  return await page.evaluate(async () => {
    const out: string[] = [JSON.stringify(localStorage), JSON.stringify(sessionStorage)];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        out.push(req.url);
        const res = await cache.match(req);
        if (res) out.push(await res.text());
      }
    }
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const r = db.transaction(store).objectStore(store).getAll();
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        out.push(JSON.stringify(rows));
      }
      db.close();
    }
    return out.join("\n");
  });
}
