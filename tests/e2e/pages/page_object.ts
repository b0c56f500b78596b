/**
 * The base of every page object: it holds the Playwright page, so that a subclass declares its
 * locators as field initializers (`readonly heading = this.page.getByRole(…)`), which run after
 * this constructor in declaration order.
 */
import type { Locator, Page } from "@playwright/test";

/** A page object: locators and actions of one screen or part of the shell, over `page`. */
export class PageObject {
  constructor(readonly page: Page) {}

  /** The screen's level-1 heading with this name. */
  protected h1(name: string | RegExp): Locator {
    return this.page.getByRole("heading", { level: 1, name });
  }

  /** Opens `url` and waits until `ready` (the screen's heading, usually) is there. */
  protected async gotoAndWait(url: string, ready: Locator): Promise<void> {
    await this.page.goto(url);
    await ready.waitFor();
  }

  /** Slows the browser's uploads to `bytesPerSecond` (Chromium's network emulation). */
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
