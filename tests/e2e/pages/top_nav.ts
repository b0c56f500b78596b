/**
 * The app shell's top bar (client/components/TopNav.tsx): main links, the language picker, the
 * theme button and, below 760 px, the menu button. Names match both languages, so the page
 * object works before and after a language switch.
 */
import type { Locator } from "@playwright/test";
import { PageObject } from "./page_object.ts";

export class TopNav extends PageObject {
  readonly nav = this.page.getByRole("navigation", { name: /^(Main navigation|主导航)$/ });
  readonly languageSelect = this.page.getByRole("combobox", { name: /^(Language|语言)$/ });
  readonly themeToggle = this.page.getByRole("button", { name: /^(Theme: |主题：)/ });
  readonly menuButton = this.page.getByRole("button", { name: /^(Menu|菜单)$/ });

  /** A main navigation link by its visible text, e.g. "Home" or "首页". */
  link(name: string): Locator {
    return this.nav.getByRole("link", { name, exact: true });
  }

  /** Picks a language by the text of its option ("English", "简体中文"). */
  async chooseLanguage(label: "English" | "简体中文"): Promise<void> {
    await this.languageSelect.selectOption({ label });
  }
}
