/**
 * Home (`/`): the Markdown editor (CodeMirror), the share options, the create button and the
 * "share is ready" result with its link and QR code.
 */
import { PageObject } from "./page_object.ts";

export class HomePage extends PageObject {
  readonly heading = this.h1("Online clipboard");
  /** CodeMirror's editable area: role textbox, named by its aria-label. */
  readonly editor = this.page.getByRole("textbox", { name: "Content (Markdown)" });
  readonly preview = this.page.getByRole("region", { name: "Preview" });
  readonly loginNotice = this.page.getByRole("note");
  readonly loginLink = this.loginNotice.getByRole("link", { name: "Log in" });
  private readonly options = this.page.getByRole("group", { name: "Share options" });
  readonly slug = this.options.getByLabel("Link suffix");
  readonly remark = this.options.getByLabel("Remark");
  readonly password = this.options.getByLabel("Password", { exact: true });
  readonly maxViews = this.options.getByLabel("Max views");
  readonly createButton = this.page.getByRole("button", { name: "Create share" });
  /** The "Your share is ready" section shown after creating. */
  readonly result = this.page.getByRole("region", { name: "Your share is ready" });
  readonly shareLink = this.result.getByRole("textbox", { name: "Share link" });
  readonly qrCode = this.result.getByRole("img", { name: /^QR code for / });

  goto(): Promise<void> {
    return this.gotoAndWait("/", this.heading);
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
