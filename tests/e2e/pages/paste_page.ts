/**
 * A share page (`/paste/{slug}`) as a visitor sees it: the rendered content, the password
 * prompt, or the not-found / expired state.
 */
import type { Locator, Page, Response } from "@playwright/test";

export class PastePage {
  readonly heading: Locator;
  /** The rendered Markdown, a region named "Share content". */
  readonly content: Locator;
  readonly passwordHeading: Locator;
  readonly passwordInput: Locator;
  readonly passwordSubmit: Locator;
  readonly passwordError: Locator;
  readonly expiredHeading: Locator;
  readonly notFoundHeading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Text share" });
    this.content = page.getByRole("region", { name: "Share content" });
    this.passwordHeading = page.getByRole("heading", { name: "This share is protected" });
    this.passwordInput = page.getByLabel("Password", { exact: true });
    this.passwordSubmit = page.getByRole("button", { name: "View content" });
    this.passwordError = page.getByRole("alert").filter({ hasText: "Wrong password" });
    this.expiredHeading = page.getByRole("heading", {
      level: 1,
      name: "This share has expired or is used up",
    });
    this.notFoundHeading = page.getByRole("heading", { level: 1, name: "Share not found" });
  }

  /** Opens `/paste/{slug}` (or an absolute share URL) and returns the document response. */
  async goto(slugOrUrl: string): Promise<Response | null> {
    const target = /^https?:\/\//.test(slugOrUrl)
      ? slugOrUrl
      : `/paste/${encodeURIComponent(slugOrUrl)}`;
    return await this.page.goto(target);
  }

  /** Enters a password in the prompt and submits it. */
  async unlock(password: string): Promise<void> {
    await this.passwordInput.fill(password);
    await this.passwordSubmit.click();
  }
}
