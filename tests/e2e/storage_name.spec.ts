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

test("a storage config name another config has is refused at the name field", async ({ browser, request, adminToken }) => {
  const name = `Team bucket ${crypto.randomUUID().slice(0, 8)}`;
  const res = await request.post("/api/s3-configs", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { name, provider_type: "local", root_dir: `/tmp/${crypto.randomUUID()}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()).data;
  const { context, page } = await newAdminPage(browser, adminToken, { locale: "en-US" });
  try {
    await page.goto("/admin/storage-config");
    await page.getByRole("button", { name: "Add storage" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add storage" });
    await dialog.getByLabel("Provider").selectOption({ label: "Local disk" });
    const nameField = dialog.getByLabel("Name", { exact: true });
    await nameField.fill(name.toUpperCase());
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(nameField).toHaveAttribute("aria-invalid", "true");
    await expect(nameField).toHaveAccessibleDescription(
      "A storage config with this name exists; choose another name",
    );
    await expect(nameField).toBeFocused();
  } finally {
    await context.close();
    await request.delete(`/api/s3-configs/${id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
  }
});
