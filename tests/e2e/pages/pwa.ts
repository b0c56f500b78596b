/**
 * The installable app's parts as a test sees them: the service worker (control, build id,
 * caches), the offline page, the update card and the page error boundary.
 */
import { PageObject } from "./page_object.ts";
import { readOfflineTable } from "./offline_queue.ts";

export class PwaShell extends PageObject {
  readonly offlineHeading = this.page.getByRole("heading", {
    level: 1,
    name: "Page temporarily unavailable",
  });
  readonly offlineBadge = this.page.getByTestId("offline-badge");
  readonly updateCard = this.page.getByRole("dialog", { name: "Update available" });
  readonly updateButton = this.updateCard.getByRole("button", { name: "Update" });
  readonly pageError = this.page.getByTestId("page-error");
  readonly retryButton = this.pageError.getByRole("button", { name: "Try again" });
  readonly reloadButton = this.pageError.getByRole("button", { name: "Reload page" });

  /** Waits until a service worker controls the page, reloading once if it is not yet. */
  async waitForControl(): Promise<void> {
    await this.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const controlled = await this.page.evaluate(() => !!navigator.serviceWorker.controller);
    if (!controlled) await this.page.reload();
    await this.page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }

  /** Opens the home page and waits until a service worker controls it (waitForControl). */
  async openControlled(): Promise<void> {
    await this.page.goto("/");
    await this.waitForControl();
  }

  /** The build id of the worker controlling the page (asked over a MessageChannel). */
  async workerBuild(): Promise<string> {
    return await this.page.evaluate(() =>
      new Promise<string>((resolve, reject) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return reject(new Error("no controller"));
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => resolve((e.data as { build: string }).build);
        controller.postMessage({ type: "GET_VERSION" }, [channel.port2]);
      })
    );
  }

  /** The keys of one table of the offline store (IndexedDB `cubby-offline`), e.g. "pastes". */
  async offlineKeys(table: string): Promise<string[]> {
    return (await readOfflineTable(this.page, table, "getAllKeys")).map(String);
  }

  /** Every URL stored in any Cache Storage cache of the page's origin. */
  async cachedUrls(): Promise<string[]> {
    return await this.page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const req of await cache.keys()) urls.push(req.url);
      }
      return urls;
    });
  }
}

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => bytes[i] === b)) throw new Error("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.slice(12, 16)) !== "IHDR") throw new Error("no IHDR chunk");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
