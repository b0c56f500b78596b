/**
 * What a key user sees: the top bar offers only the pages the key may use, and a key that may
 * only upload into mounts gets the explorer's Upload button (a drop box), as the API allows.
 */
import { Buffer } from "node:buffer";
import { expect, test } from "./fixtures.ts";
import { asKeyHolder, newContext, uniqueSlug } from "./pages/test_data.ts";
import { LoginPage } from "./pages/login_page.ts";
import { TopNav } from "./pages/top_nav.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import {
  createApiKey,
  freshMount,
  listNames,
  putFile,
  removeTemporaryRoots,
} from "./pages/mount_data.ts";

test.use({ locale: "en-US" });
test.afterAll(removeTemporaryRoots);

test("a text-only key's top bar has no Upload and no Mount explorer", async ({ browser, request, adminToken }) => {
  const key = await createApiKey(request, adminToken, uniqueSlug("e2e-text"), { text: true }, "/");
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    const nav = new TopNav(page);
    // A visitor sees every link: the guarded ones lead to the login page.
    await page.goto("/");
    await expect(nav.link("Upload")).toBeVisible();
    await expect(nav.link("Mount explorer")).toBeVisible();

    const login = new LoginPage(page);
    await login.goto();
    await login.loginWithApiKey(key);
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    await expect(nav.link("Home")).toBeVisible();
    await expect(nav.link("Admin")).toBeVisible();
    await expect(nav.link("Upload")).toHaveCount(0);
    await expect(nav.link("Mount explorer")).toHaveCount(0);
    // Still hidden after a reload (the login is read from storage).
    await page.goto("/");
    await expect(nav.link("Home")).toBeVisible();
    await expect(nav.link("Upload")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("a key with only Mount: upload gets Upload in the explorer and uploads", async ({ browser, request, adminToken }) => {
  const root = await freshMount(request, adminToken, "drop");
  await putFile(request, adminToken, root, "theirs.txt", "not for the key");
  const key = await createApiKey(
    request,
    adminToken,
    uniqueSlug("e2e-upload-only"),
    { mount_upload: true },
    root,
  );
  await asKeyHolder(browser, key, async ({ page }) => {
    await expect(page).not.toHaveURL(/\/admin\/login/);
    const nav = new TopNav(page);
    await expect(nav.link("Mount explorer")).toBeVisible();
    await expect(nav.link("Upload")).toHaveCount(0);

    const ex = new ExplorerPage(page);
    await ex.goto(root);
    await expect(page.getByText("Your key may upload into this folder")).toBeVisible();
    await expect(ex.entry("theirs.txt")).toHaveCount(0);
    await expect(ex.uploadButton).toBeVisible();
    await ex.fileInput.setInputFiles({
      name: "dropped.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("dropped by a key"),
    });
    await expect(ex.uploads.getByText("Uploaded")).toBeVisible();
    expect(await listNames(request, adminToken, root)).toEqual([
      "dropped.txt",
      "theirs.txt",
    ]);
  });
});
