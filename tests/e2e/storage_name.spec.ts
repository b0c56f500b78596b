/**
 * The storage config Cubby creates on first start has no name of its own: zh-CN pages show
 * "本地存储" and en-US pages "Local storage" (storage config page, upload options, dashboard),
 * until an admin names it (issue 12, item 5).
 */
import { expect, test } from "./fixtures.ts";
import { newAdminPage } from "./pages/test_data.ts";

for (
  const [lang, name, other] of [
    ["zh-CN", "本地存储", "Local storage"],
    ["en-US", "Local storage", "本地存储"],
  ] as const
) {
  test(`the default storage is called "${name}" in ${lang}`, async ({ browser, adminToken }) => {
    const { context, page } = await newAdminPage(browser, adminToken, { locale: lang });
    try {
      await page.goto("/admin/storage-config");
      const main = page.locator("main");
      await expect(main.getByText(name, { exact: true }).first()).toBeVisible();
      await expect(main.getByText(other, { exact: true })).toHaveCount(0);
      await page.goto("/admin/dashboard");
      await expect(page.locator(`[data-bucket="${name}"]`)).toBeVisible();
      await page.goto("/upload");
      await expect(page.locator("main option").filter({ hasText: name }).first()).toBeAttached();
      await expect(page.locator("main option").filter({ hasText: other })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
}
