/**
 * The shared admin list page on the screens no other spec drives through the UI: file
 * management's search, select-all and batch delete with its delete mode, and deleting an API
 * key after its confirmation.
 */
import { Buffer } from "node:buffer";
import { expect, test } from "./fixtures.ts";
import { newAdminPage, uniqueSlug } from "./pages/test_data.ts";

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
  const res = await request.post("/api/admin/api-keys", {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { name, permissions: { text: true } },
  });
  expect(res.status(), await res.text()).toBe(201);
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
