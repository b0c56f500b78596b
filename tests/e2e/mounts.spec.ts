/**
 * Mount management end to end (docs/PRODUCT.md §2.1, §3.3, §5.1, §6.3): the admin creates
 * a local mount through the dialog (after the validation messages), opens it in the explorer,
 * edits it, disables and enables it, and deletes it; a key user sees only the mounts inside
 * their base path, read-only.
 */
import { expect, test } from "./fixtures.ts";
import { asKeyHolder, newAdminPage } from "./pages/test_data.ts";
import { MountManagementPage } from "./pages/mount_management_page.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import {
  createApiKey,
  createLocalConfig,
  createMount,
  removeTemporaryRoots,
  uniqueSegment,
} from "./pages/mount_data.ts";

test.use({ locale: "en-US" });
test.afterAll(removeTemporaryRoots);

test("the admin creates a local mount through the UI, edits, disables and deletes it", async ({ browser, adminToken, request }) => {
  test.slow(); // Many steps, each a real round trip.
  const segment = uniqueSegment("ui");
  const cfg = await createLocalConfig(request, adminToken, `cfg-${segment}`);
  const { context, page } = await newAdminPage(browser, adminToken);
  const mounts = new MountManagementPage(page);
  await mounts.goto();
  await mounts.createButton.click();
  await expect(mounts.form).toBeVisible();

  // The messages of docs/PRODUCT.md §5.1, in the browser before anything is sent.
  await mounts.field("Mount path").fill("docs");
  await mounts.field("Cache TTL (seconds)").fill("86401");
  await mounts.save();
  await expect(mounts.form.getByText("A mount name is required.")).toBeVisible();
  await expect(mounts.form.getByText("A mount path starts with /.")).toBeVisible();
  await expect(mounts.form.getByText("Enter a whole number from 0 to 86400.")).toBeVisible();
  await expect(mounts.field("Mount name")).toBeFocused();
  await mounts.field("Mount name").fill("x".repeat(51));
  await mounts.field("Mount path").fill("/api/x");
  await mounts.save();
  await expect(mounts.form.getByText("A mount name has at most 50 characters.")).toBeVisible();
  await expect(mounts.form.getByText("This path is reserved by the system.")).toBeVisible();
  await mounts.field("Mount path").fill("/a b");
  await mounts.save();
  await expect(mounts.form.getByText(/Only letters, digits, underscores/)).toBeVisible();

  // A valid local mount on the config made for this test.
  await expect(mounts.field("Cache TTL (seconds)")).toHaveAttribute("placeholder", "300");
  await mounts.field("Mount name").fill(`Docs ${segment}`);
  await mounts.field("Mount path").fill(`/${segment}`);
  await mounts.field("Cache TTL (seconds)").fill("0");
  await mounts.field("Storage type").selectOption("local");
  await mounts.field("Storage config").selectOption(cfg.id);
  await mounts.field("Remark").fill("made by the e2e test");
  await mounts.save();
  await expect(mounts.form).toBeHidden();
  const row = mounts.row(`Docs ${segment}`);
  await expect(row).toContainText(`/${segment}`);
  await expect(row).toContainText("No cache");
  await expect(mounts.toggle(`Docs ${segment}`)).toBeChecked();

  // A second mount on the same path is refused by the server, shown at the path field.
  await mounts.createButton.click();
  await mounts.field("Mount name").fill("Clash");
  await mounts.field("Mount path").fill(`/${segment}/inner`);
  await mounts.field("Storage config").selectOption(cfg.id);
  await mounts.save();
  await expect(mounts.form.getByText("This mount path is taken or overlaps another mount"))
    .toBeVisible();
  await mounts.form.getByRole("button", { name: "Cancel" }).click();

  // It opens in the explorer, empty.
  await row.getByRole("link", { name: `Open Docs ${segment} in the mount explorer` }).click();
  const ex = new ExplorerPage(page);
  await ex.heading.waitFor();
  await expect(page).toHaveURL(new RegExp(`/mount-explorer/${segment}$`));
  await expect(page.getByText("This folder is empty.", { exact: false })).toBeVisible();

  // Edit: the TTL and the WebDAV policy.
  await mounts.goto();
  await row.getByRole("button", { name: `Edit Docs ${segment}` }).click();
  await expect(mounts.field("Mount path")).toHaveValue(`/${segment}`);
  await mounts.field("Cache TTL (seconds)").fill("120");
  await mounts.field("WebDAV policy").selectOption("native_proxy");
  await mounts.save();
  await expect(mounts.form).toBeHidden();
  await expect(row).toContainText("120 s");
  await expect(row).toContainText("Native proxy");

  // Disable: the mount leaves the explorer; enable brings it back.
  await mounts.toggle(`Docs ${segment}`).uncheck();
  await expect(mounts.toggle(`Docs ${segment}`)).not.toBeChecked();
  await expect(row).toContainText("Disabled");
  await ex.goto("/");
  await expect(ex.entry(segment)).toHaveCount(0);
  await mounts.goto();
  await mounts.toggle(`Docs ${segment}`).check();
  await expect(mounts.toggle(`Docs ${segment}`)).toBeChecked();
  await ex.goto("/");
  await expect(ex.entry(segment)).toBeVisible();

  // Delete, after confirming.
  await mounts.goto();
  await row.getByRole("button", { name: `Delete Docs ${segment}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete mount" });
  await expect(confirm).toContainText("The files in its storage are not deleted.");
  await confirm.getByRole("button", { name: "Delete mount" }).click();
  await expect(row).toHaveCount(0);
  await context.close();
});

test("a key user sees the mounts of their base path, read-only", async ({ browser, adminToken, request }) => {
  const mine = uniqueSegment("keymine");
  const other = uniqueSegment("keyother");
  const cfg = await createLocalConfig(request, adminToken, `cfg-${mine}`);
  await createMount(request, adminToken, mine, cfg.id);
  await createMount(request, adminToken, other, cfg.id);
  const key = await createApiKey(
    request,
    adminToken,
    uniqueSegment("reader"),
    { mount_view: true },
    `/${mine}`,
  );
  await asKeyHolder(browser, key, async ({ page }) => {
    await expect(page).toHaveURL(/\/admin\/mount-management$/);
    const mounts = new MountManagementPage(page);
    await mounts.heading.waitFor();
    await expect(page.getByText("Only the administrator can change them.")).toBeVisible();
    await expect(mounts.row(mine)).toBeVisible();
    await expect(mounts.table.getByRole("rowheader")).toHaveCount(1);
    await expect(mounts.createButton).toHaveCount(0);
    await expect(mounts.row(mine).getByRole("button")).toHaveCount(0);
    await expect(mounts.row(mine)).toContainText("Enabled");
  });
});
