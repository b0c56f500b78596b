/**
 * The shared admin list page on the screens no other spec drives through the UI: file
 * management's search, select-all and batch delete with its delete mode, its totals and "Clear
 * expired", deleting an API key after its confirmation, the page kept in the URL, page numbers
 * and a jump, and no pagination while a list loads or fails.
 */
import { Buffer } from "node:buffer";
import { expect, loginAdmin, test } from "./fixtures.ts";
import { asAdmin, newAdminPage, uniqueSlug } from "./pages/test_data.ts";
import { holdAnswers } from "./pages/held_answers.ts";
import { createApiKey } from "./pages/mount_data.ts";

test.use({ locale: "en-US" });

test("file management finds files, selects them all and deletes them", async ({ browser, request, adminToken }) => {
  const tag = uniqueSlug("e2e-batch");
  for (const n of [1, 2]) {
    const res = await request.put(`/api/upload-direct/${tag}-${n}.txt`, {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: Buffer.from(`file ${n}`),
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  const { context, page } = await newAdminPage(browser, adminToken);
  await page.goto("/admin/file-management");
  await page.getByLabel("Search files").fill(tag);
  const table = page.getByRole("table", { name: "File shares" });
  await expect(table.getByRole("link", { name: new RegExp(`^${tag}-`) })).toHaveCount(2);

  const deleteSelected = page.getByRole("button", { name: /^Delete selected/ });
  await expect(deleteSelected).toBeDisabled();
  await table.getByRole("checkbox", { name: "Select all files on this page" }).check();
  await expect(page.getByRole("button", { name: "Delete selected (2)" })).toBeEnabled();
  await deleteSelected.click();

  const dialog = page.getByRole("alertdialog", { name: "Delete files (2)" });
  await expect(dialog.getByRole("radio", { name: "The records and the stored files" }))
    .toBeChecked();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("No files match your search.")).toBeVisible();
  await context.close();
});

test("a key is deleted from key management after its confirmation", async ({ browser, request, adminToken }) => {
  const name = uniqueSlug("e2e-key");
  await createApiKey(request, adminToken, name, { text: true }, "/");
  const { context, page } = await newAdminPage(browser, adminToken);
  await page.goto("/admin/key-management");
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("rowheader", { name })).toBeVisible();

  await table.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete API key" });
  await expect(dialog).toContainText(`Delete the key "${name}"?`);
  await dialog.getByRole("button", { name: "Delete key" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Key deleted")).toBeVisible();
  await expect(table.getByRole("rowheader", { name })).toHaveCount(0);
  await context.close();
});

test("text management keeps its page in the URL and offers page numbers and a jump", async ({ browser, request, adminToken }) => {
  const tag = uniqueSlug("e2e-pages").slice(0, 30);
  for (let i = 0; i < 25; i++) {
    const res = await request.post("/api/paste", {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { content: `page test ${i}`, slug: `${tag}-${String(i).padStart(2, "0")}` },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  const { context, page } = await newAdminPage(browser, adminToken, {
    viewport: { width: 1280, height: 800 },
  });
  try {
    await page.goto("/admin/text-management");
    await page.getByLabel("Search shares").fill(tag);
    // The search goes into the URL once typing pauses.
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}\\b`));
    const pages = page.getByRole("navigation", { name: "Pages" });
    const table = page.getByRole("table", { name: "Text shares" });
    await expect(pages).toContainText("25 in total");
    // Page numbers: straight to page 3, and the URL says so.
    await pages.getByRole("button", { name: "Page 3" }).click();
    await expect(page).toHaveURL(/[?&]page=3\b/);
    await expect(pages.getByRole("button", { name: "Page 3" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(table.locator("tbody tr")).toHaveCount(5);
    // A reload shows the same page of the same search.
    await page.reload();
    await expect(page.getByLabel("Search shares")).toHaveValue(tag);
    await expect(pages.getByRole("button", { name: "Page 3" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(table.locator("tbody tr")).toHaveCount(5);
    // Any page by its number.
    await pages.getByLabel("Go to page").fill("2");
    await pages.getByRole("button", { name: "Go", exact: true }).click();
    await expect(pages.getByRole("button", { name: "Page 2" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page).toHaveURL(/[?&]page=2\b/);
  } finally {
    await context.close();
  }
});

test('while the list loads or fails there is no "0 in total · Page 1 of 1"', async ({ browser, adminToken }) => {
  await asAdmin(browser, adminToken, async ({ page }) => {
    const held = await holdAnswers(page, /\/api\/pastes\?/);
    await page.goto("/admin/text-management");
    await held.answered;
    await expect(page.getByRole("status").or(page.locator(".spinner")).first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
    await expect(page.getByText(/0 in total/)).toHaveCount(0);
    held.release();
    await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();

    // A failed load shows its error and Retry, no pages.
    await page.route(/\/api\/pastes\?/, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: 500, message: "x", error: "internal", success: false }),
      }));
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  });
});

test("file management shows the total count and size, and clears expired shares", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  const auth = { authorization: `Bearer ${token}` };
  for (
    const [name, body, query] of [
      ["keep.txt", "k".repeat(1024), ""],
      ["once.txt", "o".repeat(1024), "?max_views=1"],
    ]
  ) {
    const res = await fetch(`${isolatedServer.url}/api/upload-direct/${name}${query}`, {
      method: "PUT",
      headers: auth,
      body,
    });
    expect(res.status).toBe(201);
    const slug = (await res.json()).data.slug;
    if (name === "once.txt") {
      const open = await fetch(`${isolatedServer.url}/api/public/files/${slug}`);
      expect(open.status).toBe(200);
      await open.body?.cancel();
    }
  }
  await asAdmin(browser, token, async ({ page }) => {
    await page.goto("/admin/file-management");
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages).toContainText("2 files · 2 KB in total");
    await page.getByRole("button", { name: "Clear expired" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Clear expired file shares?" });
    await dialog.getByRole("button", { name: "Clear expired" }).click();
    await expect(page.getByText("Removed 1 expired file share")).toBeVisible();
    await expect(pages).toContainText("1 file · 1 KB in total");
    await expect(page.getByRole("table", { name: "File shares" })).toContainText("keep.txt");
  }, { baseURL: isolatedServer.url });
});
