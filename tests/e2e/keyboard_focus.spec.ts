/**
 * Keyboard focus and what it looks like: the selected tab shows the focus ring, the ring and the
 * dark primary button's hover meet their contrast minimums, the edit dialog hands the focus
 * back to its opener, and the focus lands on the new content (never on <body>) after logging
 * in, starting an upload, opening an explorer folder, following a sidebar link on a phone and
 * unlocking a share. At 320 px the login tabs stay in their card and the dashboard does not
 * scroll sideways.
 */
import { Buffer } from "node:buffer";
import type { Page } from "@playwright/test";
import { ADMIN, expect, test } from "./fixtures.ts";
import { LoginPage } from "./pages/login_page.ts";
import { PastePage } from "./pages/paste_page.ts";
import { AdminLayout } from "./pages/admin_layout.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import { TextManagementPage } from "./pages/text_management_page.ts";
import { holdAnswers } from "./pages/held_answers.ts";
import { contrast, over, parseColor, shadowColors } from "./pages/colors.ts";
import { asAdmin, asVisitor, createPaste, newAdminPage, uniqueSlug } from "./pages/test_data.ts";
import { freshMount, putFile, removeTemporaryRoots } from "./pages/mount_data.ts";

test.use({ locale: "en-US" });
test.afterAll(removeTemporaryRoots);

/** What holds the focus: "BODY", or the element's tag and accessible text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "BODY";
    return `${el.tagName} ${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim()}`;
  });
}

/** The contrast of the focus ring of the focused element against the page behind it. */
async function focusRingContrast(page: Page): Promise<number> {
  const { shadow, outline, outlineStyle, background } = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return {
      shadow: style.boxShadow,
      outline: style.outlineColor,
      outlineStyle: style.outlineStyle,
      background: getComputedStyle(document.body).backgroundColor,
    };
  });
  const behind = parseColor(background);
  const rings = shadow === "none" ? [] : shadowColors(shadow);
  if (outlineStyle !== "none") rings.push(parseColor(outline));
  return Math.max(0, ...rings.map((ring) => contrast(over(ring, behind), behind)));
}

test("the selected login tab shows a focus ring of 3:1 or more (light)", async ({ browser }) => {
  await asVisitor(browser, async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.username.click();
    await page.keyboard.press("Shift+Tab");
    await expect(login.passwordTab).toBeFocused();
    expect(await focusRingContrast(page)).toBeGreaterThanOrEqual(3);
    // A plain button's ring, too.
    await login.password.click();
    await page.keyboard.press("Tab");
    await expect(login.submit).toBeFocused();
    expect(await focusRingContrast(page)).toBeGreaterThanOrEqual(3);
  }, { colorScheme: "light" });
});

test("the dark primary button keeps 4.5:1 for its text when hovered", async ({ browser }) => {
  await asVisitor(browser, async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.submit.hover();
    await expect.poll(() =>
      login.submit.evaluate((el) => {
        const s = getComputedStyle(el);
        return [s.color, s.backgroundColor];
      }).then(([fg, bg]) => contrast(parseColor(fg), parseColor(bg)))
    ).toBeGreaterThanOrEqual(4.5);
  }, { colorScheme: "dark" });
});

test("the edit dialog gives the focus back to its Edit button", async ({ browser, request, adminToken }) => {
  const slug = uniqueSlug("focus-edit");
  await createPaste(request, `Bearer ${adminToken}`, { content: "edit me", slug });
  await asAdmin(browser, adminToken, async ({ page }) => {
    const texts = new TextManagementPage(page);
    await texts.goto();
    await texts.searchFor(slug);
    const edit = page.getByRole("button", { name: `Edit ${slug}`, exact: true });
    // The row's share loads while the button waits: its answer is held until then.
    const held = await holdAnswers(page, /\/api\/pastes\/[0-9A-Z]{26}$/);
    await edit.focus();
    await page.keyboard.press("Enter");
    await held.answered;
    await expect(edit).toHaveAttribute("aria-busy", "true");
    await expect(edit).toBeFocused();
    held.release();
    const dialog = page.getByRole("dialog", { name: `Edit share ${slug}` });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(edit).toBeFocused();
  });
});

test("after logging in, the focus is on the new page", async ({ browser }) => {
  await asVisitor(browser, async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.username.fill(ADMIN.username);
    await login.password.fill(ADMIN.password);
    await login.password.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect.poll(() => focused(page)).toMatch(/^(H1 Dashboard|MAIN)/);
  });
});

test("starting an upload moves the focus to the upload queue", async ({ browser, adminToken }) => {
  await asAdmin(browser, adminToken, async ({ page }) => {
    await page.goto("/upload");
    await expect(page.getByLabel("Storage", { exact: true })).toHaveValue(/.+/);
    await page.getByLabel("Files to upload").setInputFiles({
      name: `${uniqueSlug("focus")}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from("focus"),
    });
    const start = page.getByRole("button", { name: /^Start upload/ });
    await expect(start).toBeEnabled();
    await start.focus();
    await page.keyboard.press("Enter");
    await expect(start).toBeDisabled();
    await expect.poll(() => focused(page)).toMatch(/^H2 Files/);
  });
});

test("opening an explorer folder by keyboard keeps the focus on the page", async ({ browser, request, adminToken }) => {
  const root = await freshMount(request, adminToken, "focus");
  await putFile(request, adminToken, `${root}/inner`, "a.txt", "a");
  await asAdmin(browser, adminToken, async ({ page }) => {
    const explorer = new ExplorerPage(page);
    await page.goto(`/mount-explorer${root}`);
    const folder = explorer.table.getByRole("link", { name: "inner", exact: true });
    await folder.focus();
    await page.keyboard.press("Enter");
    await expect(explorer.table.getByRole("link", { name: "a.txt" })).toBeVisible();
    await expect.poll(() => focused(page)).not.toBe("BODY");
  });
});

test("following a sidebar link on a phone puts the focus on the new page", async ({ browser, adminToken }) => {
  const { context, page } = await newAdminPage(browser, adminToken, {
    viewport: { width: 390, height: 844 },
  });
  try {
    await page.goto("/admin/dashboard");
    await page.getByRole("button", { name: "Admin menu" }).click();
    const admin = new AdminLayout(page);
    const link = admin.module("Text management");
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Text management" })).toBeVisible();
    await expect.poll(() => focused(page)).toMatch(/^(H1 Text management|MAIN)/);
  } finally {
    await context.close();
  }
});

test("unlocking a share puts the focus on the share", async ({ browser, request, adminToken }) => {
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "behind a password",
    slug: uniqueSlug("focus-pw"),
    password: "focus-password",
  });
  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    await share.goto(paste.slug);
    await share.passwordInput.fill("focus-password");
    await share.passwordInput.press("Enter");
    await expect(share.content).toContainText("behind a password");
    await expect.poll(() => focused(page)).toBe("H1 Text share");
  });
});

test("at 320 px (en-US) the login tabs stay in their card, the dashboard in the screen", async ({ browser, adminToken }) => {
  const viewport = { width: 320, height: 640 };
  await asVisitor(browser, async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    const card = (await page.locator(".auth-card").boundingBox())!;
    for (const tab of [login.passwordTab, login.apiKeyTab]) {
      const box = (await tab.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(card.x);
      expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width);
    }
  }, { viewport });
  const admin = await newAdminPage(browser, adminToken, { viewport });
  try {
    await admin.page.goto("/admin/dashboard");
    await expect(admin.page.getByRole("img", { name: /./ }).first()).toBeVisible();
    await admin.page.waitForLoadState("networkidle");
    const overflow = await admin.page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    expect(overflow).toBe(0);
  } finally {
    await admin.context.close();
  }
});
