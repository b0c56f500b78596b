/**
 * Key management: a refusal of the server shows at the field it concerns, in view, and a base
 * path is refused for what is really wrong with it.
 */
import { expect, test } from "./fixtures.ts";
import { newAdminPage, uniqueSlug } from "./pages/test_data.ts";
import { KeyManagementPage } from "./pages/key_management_page.ts";

test("a duplicate key name is shown at the name field, in view, at 1280×720", async ({ browser, request, adminToken }) => {
  const name = uniqueSlug("e2e-dup");
  const res = await request.post("/api/admin/api-keys", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { name, permissions: { text: true } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { context, page } = await newAdminPage(browser, adminToken, {
    viewport: { width: 1280, height: 720 },
  });
  try {
    const keys = new KeyManagementPage(page);
    await keys.goto();
    await keys.createButton.click();
    await keys.nameInput.fill(name);
    await keys.createSubmit.click();
    await expect(keys.nameInput).toHaveAttribute("aria-invalid", "true");
    await expect(keys.nameInput).toHaveAccessibleDescription("A key with this name already exists");
    await expect(keys.nameInput).toBeFocused();
    await expect(keys.createDialog.getByText("A key with this name already exists"))
      .toBeInViewport();
    // Changing the name clears the mark, and the key is created.
    await keys.nameInput.fill(`${name}-2`);
    await expect(keys.nameInput).not.toHaveAttribute("aria-invalid", "true");
    await keys.createSubmit.click();
    await expect(keys.createdDialog).toBeVisible();
  } finally {
    await context.close();
  }
});

test("a base path of /../etc is refused for its .. segment, in English and in Chinese", async ({ browser, adminToken }) => {
  for (
    const [locale, text] of [
      ["en-US", "The base path must not contain . or .. segments"],
      ["zh-CN", "基础路径中不能包含 . 或 .. 段"],
    ] as const
  ) {
    const { context, page } = await newAdminPage(browser, adminToken, { locale });
    try {
      await page.goto("/admin/key-management");
      const english = locale === "en-US";
      await page.getByRole("button", { name: english ? "Create key" : "创建密钥" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel(english ? "Key name" : "密钥名称").fill(uniqueSlug("e2e-path"));
      const basePath = dialog.getByLabel(english ? "Base path" : "基础路径");
      await basePath.fill("/../etc");
      await dialog.getByRole("button", { name: english ? "Create" : "创建", exact: true }).click();
      await expect(basePath).toHaveAttribute("aria-invalid", "true");
      await expect(basePath).toHaveAccessibleDescription(new RegExp(text.replace(/\./g, "\\.")));
    } finally {
      await context.close();
    }
  }
});

test("at 1280 px the sticky Actions column covers neither Status nor Last used", async ({ browser, request, adminToken }) => {
  // A key with every permission, a long name, an expiry and a last use: the widest row.
  const name = uniqueSlug("e2e-wide-key-with-a-rather-long-name");
  const res = await request.post("/api/admin/api-keys", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      name,
      permissions: {
        text: true,
        file: true,
        mount_view: true,
        mount_upload: true,
        mount_copy: true,
        mount_rename: true,
        mount_delete: true,
        webdav_read: true,
      },
      basic_path: "/projects/customer-archive/2025",
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      is_guest: 1,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const key = (await res.json()).data.key;
  expect((await request.get("/api/test/api-key", { headers: { authorization: `ApiKey ${key}` } }))
    .status()).toBe(200);
  for (
    const [locale, status, lastUsed] of [
      ["en-US", "Status", "Last used"],
      ["zh-CN", "状态", "最后使用"],
    ] as const
  ) {
    const { context, page } = await newAdminPage(browser, adminToken, {
      locale,
      viewport: { width: 1280, height: 800 },
    });
    try {
      await page.goto("/admin/key-management");
      const row = page.getByRole("row").filter({
        has: page.getByRole("rowheader", { name, exact: true }),
      });
      await expect(row).toBeVisible();
      const cells = row.locator("td");
      const actions = row.locator("td.cell-actions");
      const box = async (label: string) =>
        (await cells.and(page.locator(`[data-label="${label}"]`)).boundingBox())!;
      const act = (await actions.boundingBox())!;
      for (const label of [status, lastUsed]) {
        const cell = await box(label);
        expect(cell.x + cell.width, `${locale} ${label} ends before Actions`).toBeLessThanOrEqual(
          act.x + 1,
        );
      }
      // And the table needs no sideways scroll at this width.
      const wrap = page.getByRole("region", { name: locale === "en-US" ? "API keys" : "API 密钥" });
      const overflow = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow, `${locale} overflow`).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  }
});
