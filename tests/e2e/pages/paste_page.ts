/**
 * A share page (`/paste/{slug}`) as a visitor sees it: the rendered content, the password
 * prompt, or the not-found / expired state.
 */
import type { Response } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class PastePage extends PageObject {
  readonly heading = this.h1("Text share");
  /** The rendered Markdown, a region named "Share content". */
  readonly content = this.page.getByRole("region", { name: "Share content" });
  readonly passwordHeading = this.page.getByRole("heading", { name: "This share is protected" });
  readonly passwordInput = this.page.getByLabel("Password", { exact: true });
  readonly passwordSubmit = this.page.getByRole("button", { name: "View content" });
  readonly passwordError = this.page.getByRole("alert").filter({ hasText: "Wrong password" });
  readonly expiredHeading = this.page.getByRole("heading", {
    level: 1,
    name: "This share has expired or is used up",
  });
  readonly notFoundHeading = this.h1("Share not found");
  /** The "Raw text" link of an opened share. */
  readonly rawLink = this.page.getByRole("link", { name: "Raw text" });

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
