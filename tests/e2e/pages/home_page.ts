/**
 * Home (`/`): the Markdown editor (CodeMirror), the share options, the create button and the
 * "share is ready" result with its link and QR code.
 */
import type { Locator, Page } from "@playwright/test";

export class HomePage {
  readonly heading: Locator;
  /** CodeMirror's editable area: role textbox, named by its aria-label. */
  readonly editor: Locator;
  readonly preview: Locator;
  readonly loginNotice: Locator;
  readonly loginLink: Locator;
  readonly slug: Locator;
  readonly remark: Locator;
  readonly password: Locator;
  readonly maxViews: Locator;
  readonly createButton: Locator;
  /** The "Your share is ready" section shown after creating. */
  readonly result: Locator;
  readonly shareLink: Locator;
  readonly qrCode: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Online clipboard" });
    this.editor = page.getByRole("textbox", { name: "Content (Markdown)" });
    this.preview = page.getByRole("region", { name: "Preview" });
    this.loginNotice = page.getByRole("note");
    this.loginLink = this.loginNotice.getByRole("link", { name: "Log in" });
    const options = page.getByRole("group", { name: "Share options" });
    this.slug = options.getByLabel("Link suffix");
    this.remark = options.getByLabel("Remark");
    this.password = options.getByLabel("Password", { exact: true });
    this.maxViews = options.getByLabel("Max views");
    this.createButton = page.getByRole("button", { name: "Create share" });
    this.result = page.getByRole("region", { name: "Your share is ready" });
    this.shareLink = this.result.getByRole("textbox", { name: "Share link" });
    this.qrCode = this.result.getByRole("img", { name: /^QR code for / });
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await this.heading.waitFor();
  }

  /**
   * Types Markdown into the editor line by line, as a person would. CodeMirror continues
   * lists and indentation on Enter, so each new line starts from a clean line start: the
   * continued markup is removed before the line's own text is typed.
   */
  async typeMarkdown(text: string): Promise<void> {
    await this.editor.click();
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        await this.page.keyboard.press("Enter");
        // Drop whatever CodeMirror carried over (list marker, indentation).
        await this.page.keyboard.press("Shift+Home");
        await this.page.keyboard.press("Delete");
      }
      if (lines[i]) await this.page.keyboard.type(lines[i]);
    }
  }

  /** The editor's text, line by line, as CodeMirror holds it. */
  async editorText(): Promise<string> {
    return await this.editor.evaluate((el) =>
      Array.from(el.querySelectorAll(".cm-line")).map((line) => {
        const copy = line.cloneNode(true) as Element;
        copy.querySelectorAll(".cm-placeholder").forEach((p) => p.remove());
        return copy.textContent ?? "";
      }).join("\n")
    );
  }

  /** Clicks "Create share" and returns the absolute share URL from the result. */
  async create(): Promise<string> {
    await this.createButton.click();
    await this.shareLink.waitFor();
    return await this.shareLink.inputValue();
  }
}
