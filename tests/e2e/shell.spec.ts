/**
 * The app shell (docs/PRODUCT.md §1, §2 and §14.6): language switch, theme toggle, the catch-all
 * redirect and the top navigation on a 360 px wide phone.
 */
import { expect, test } from "./fixtures.ts";
import { TopNav } from "./pages/top_nav.ts";
import { HomePage } from "./pages/home_page.ts";
import { LoginPage } from "./pages/login_page.ts";

test.describe("language", () => {
  // A browser asking for Chinese gets zh-CN, the default.
  test.use({ locale: "zh-CN" });

  test("switching the language changes the visible text and survives a reload", async ({ page }) => {
    const nav = new TopNav(page);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(nav.link("首页")).toBeVisible();
    await expect(nav.link("管理")).toBeVisible();
    await expect(nav.languageSelect).toHaveValue("zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: "在线剪贴板" })).toBeVisible();

    await nav.chooseLanguage("English");
    await expect(nav.link("Home")).toBeVisible();
    await expect(nav.link("Admin")).toBeVisible();
    await expect(nav.link("首页")).toHaveCount(0);
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();
    await expect(nav.themeToggle).toHaveAccessibleName(/^Theme: /);

    // Kept after a reload: the server renders in the chosen language too.
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await expect(nav.link("Home")).toBeVisible();
    await expect(nav.languageSelect).toHaveValue("en-US");
    await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();

    // Other pages follow, and switching back works as well.
    await page.goto("/admin/login");
    await expect(new LoginPage(page).heading).toBeVisible();
    await nav.chooseLanguage("简体中文");
    await expect(page.getByRole("heading", { level: 1, name: "登录" })).toBeVisible();
    await expect(nav.link("首页")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "登录" })).toBeVisible();
    await expect(nav.languageSelect).toHaveValue("zh-CN");
  });
});

test.describe("theme", () => {
  test.use({ locale: "en-US", colorScheme: "dark" });

  test("the theme button cycles auto → light → dark → auto and remembers the choice", async ({ page }) => {
    const nav = new TopNav(page);
    const html = page.locator("html");
    /** The toggle's name, then the theme attributes on <html> that are given. */
    const expectTheme = async (name: string, attrs: { mode?: string; theme?: string }) => {
      await expect(nav.themeToggle).toHaveAccessibleName(`Theme: ${name}`);
      if (attrs.mode) await expect(html).toHaveAttribute("data-theme-mode", attrs.mode);
      if (attrs.theme) await expect(html).toHaveAttribute("data-theme", attrs.theme);
    };
    await page.goto("/");

    // Auto follows the system, which is dark here.
    await expectTheme("Auto", { mode: "auto", theme: "dark" });

    await nav.themeToggle.click();
    await expectTheme("Light", { mode: "light", theme: "light" });

    await nav.themeToggle.click();
    await expectTheme("Dark", { mode: "dark", theme: "dark" });

    // Kept after a reload, and applied before the app starts (no flash of the other theme).
    await page.reload();
    await expectTheme("Dark", { theme: "dark" });

    await nav.themeToggle.click();
    await expectTheme("Auto", { mode: "auto", theme: "dark" });

    // Auto follows a change of the system scheme while the page is open.
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).toHaveAttribute("data-theme", "light");
    await page.reload();
    await expectTheme("Auto", { theme: "light" });

    // Light survives a reload too.
    await nav.themeToggle.click();
    await expectTheme("Light", {});
    await page.reload();
    await expectTheme("Light", { mode: "light" });
  });
});

test.describe("routing and small screens", () => {
  test.use({ locale: "en-US" });

  test("an unknown path redirects to the home page", async ({ page }) => {
    await page.goto("/no/such/page-anywhere");
    await expect(page).toHaveURL(/\/$/);
    await expect(new HomePage(page).heading).toBeVisible();
    await expect(new TopNav(page).link("Home")).toHaveAttribute("aria-current", "page");
  });

  test("at 360 px the navigation folds into a working menu", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const nav = new TopNav(page);
    await page.goto("/");
    await expect(new HomePage(page).heading).toBeVisible();

    // The links hide behind the menu button; language and theme stay reachable.
    await expect(nav.menuButton).toBeVisible();
    await expect(nav.menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(nav.link("Admin")).toBeHidden();
    await expect(nav.languageSelect).toBeVisible();
    await expect(nav.themeToggle).toBeVisible();

    // Nothing sticks out sideways.
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    expect(overflow).toBeLessThanOrEqual(0);

    await nav.menuButton.click();
    await expect(nav.menuButton).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Home", "Upload", "Mount explorer", "Admin"]) {
      await expect(nav.link(name)).toBeVisible();
      await expect(nav.link(name)).toBeInViewport();
    }

    await nav.link("Admin").click();
    await expect(page).toHaveURL(/\/admin\/login\?redirect=%2Fadmin$/);
    await expect(new LoginPage(page).heading).toBeVisible();
    // The menu closes after navigating.
    await expect(nav.menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(nav.link("Admin")).toBeHidden();

    // The theme button works on the phone too.
    await nav.themeToggle.click();
    await expect(nav.themeToggle).toHaveAccessibleName("Theme: Light");
  });
});
