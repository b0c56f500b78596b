/**
 * The app shell's top bar (client/components/TopNav.tsx): main links, the language picker, the
 * theme button and, below 760 px, the menu button. Names match both languages, so the page
 * object works before and after a language switch.
 */
import type { Locator, Page } from "@playwright/test";

export class TopNav {
  readonly nav: Locator;
  readonly languageSelect: Locator;
  readonly themeToggle: Locator;
  readonly menuButton: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole("navigation", { name: /^(Main navigation|主导航)$/ });
    this.languageSelect = page.getByRole("combobox", { name: /^(Language|语言)$/ });
    this.themeToggle = page.getByRole("button", { name: /^(Theme: |主题：)/ });
    this.menuButton = page.getByRole("button", { name: /^(Menu|菜单)$/ });
  }

  /** A main navigation link by its visible text, e.g. "Home" or "首页". */
  link(name: string): Locator {
    return this.nav.getByRole("link", { name, exact: true });
  }

  /** Picks a language by the text of its option ("English", "简体中文"). */
  async chooseLanguage(label: "English" | "简体中文"): Promise<void> {
    await this.languageSelect.selectOption({ label });
  }
}
