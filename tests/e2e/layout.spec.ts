/**
 * Layout at the sizes and languages of the browser pass (issue 12, item 5): the management
 * pages (texts, files, keys, mounts, storage) at desktop 1280×800 and mobile 390×844, in en-US
 * and zh-CN, never scroll sideways, and every action of the page and of its rows lies inside the
 * viewport's width (reachable without scrolling a table sideways). The login tabs keep their
 * labels on one line. Screenshots of every case land in test-results/layout/ for a person to
 * look at.
 */
import type { Page } from "@playwright/test";
import { ADMIN, expect, loginAdmin, sharedServerUrl, test } from "./fixtures.ts";
import { createPaste, newContext, newVisitorPage, uniqueSlug } from "./pages/test_data.ts";
import { createApiKey, freshMount, removeTemporaryRoots } from "./pages/mount_data.ts";

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "mobile", width: 390, height: 844 },
] as const;
const LANGUAGES = ["en-US", "zh-CN"] as const;
const PAGES = [
  { name: "texts", path: "/admin/text-management", table: ".texts-table" },
  { name: "files", path: "/admin/file-management", table: "table" },
  { name: "keys", path: "/admin/key-management", table: "table" },
  { name: "mounts", path: "/admin/mount-management", table: "table" },
  { name: "storage", path: "/admin/storage-config", table: ".storage-card, table" },
] as const;

/** How far the document scrolls sideways (0 when it fits). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

/**
 * The visible controls of <main> whose box is not inside the viewport's width, as
 * "text (left..right)": buttons, button-styled links and checkboxes.
 */
function controlsOutside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      "main button, main a.btn, main input[type=checkbox], main select",
    );
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not rendered (hidden panel, menu)
      if (box.left < -0.5 || box.right > width + 0.5) {
        const label = el.getAttribute("aria-label") || el.textContent?.trim() || el.tagName;
        out.push(`${label} (${Math.round(box.left)}..${Math.round(box.right)} of ${width})`);
      }
    }
    return out;
  });
}

test.describe("management pages fit the screen", () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async ({ playwright }) => {
    const adminToken = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
    const request = await playwright.request.newContext({ baseURL: sharedServerUrl() });
    const auth = `Bearer ${adminToken}`;
    await createPaste(request, auth, {
      content: "A paste with a long remark, so the remark column has something to wrap",
      slug: uniqueSlug("layout-text-with-a-long-slug"),
      remark: "Quarterly report draft for the team, shared for review until Friday",
      password: "pw-layout",
      max_views: 20,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const up = await request.put("/api/upload-direct/a-rather-long-file-name-for-layout.pdf", {
      headers: { authorization: auth },
      data: "%PDF-1.4 layout",
    });
    expect(up.status()).toBe(201);
    await createApiKey(request, adminToken, uniqueSlug("layout-key"), {
      text: true,
      file: true,
      mount_view: true,
      mount_upload: true,
      webdav_read: true,
    }, "/");
    await freshMount(request, adminToken, "layout");
    await request.dispose();
  });

  test.afterAll(async () => {
    await removeTemporaryRoots();
  });

  for (const lang of LANGUAGES) {
    for (const size of SIZES) {
      test(`${lang} at ${size.width}×${size.height}`, async ({ browser, adminToken }) => {
        const context = await newContext(browser, {
          adminToken,
          locale: lang,
          viewport: { width: size.width, height: size.height },
        });
        const page = await context.newPage();
        for (const p of PAGES) {
          await page.goto(p.path);
          await page.locator(`main ${p.table}`).first().waitFor();
          await page.screenshot({
            path: `test-results/layout/${p.name}-${lang}-${size.name}.png`,
            fullPage: true,
          });
          expect.soft(await sidewaysOverflow(page), `${p.path} scrolls sideways`).toBe(0);
          expect.soft(await controlsOutside(page), `${p.path}: controls past the edge`)
            .toEqual([]);
        }
        await context.close();
      });
    }
  }
});

test("the login tabs keep each label on one line (en-US, zh-CN; desktop and mobile)", async ({ browser }) => {
  for (const lang of LANGUAGES) {
    for (const size of SIZES) {
      const { context, page } = await newVisitorPage(browser, { locale: lang, viewport: size });
      await page.goto("/admin/login");
      const tabs = page.getByRole("tab");
      await expect(tabs).toHaveCount(2);
      await page.screenshot({ path: `test-results/layout/login-${lang}-${size.name}.png` });
      for (const tab of await tabs.all()) {
        const lines = await tab.evaluate((el) => {
          const style = getComputedStyle(el);
          const lineHeight = parseFloat(style.lineHeight) ||
            parseFloat(style.fontSize) * 1.2;
          const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
          return Math.round((el.getBoundingClientRect().height - padding) / lineHeight);
        });
        expect.soft(lines, `${lang} ${size.name}: "${await tab.textContent()}"`).toBe(1);
      }
      expect.soft(await sidewaysOverflow(page)).toBe(0);
      await context.close();
    }
  }
});
