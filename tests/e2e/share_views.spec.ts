/**
 * How share pages count views: the owner's own views (the admin, or the key that created the
 * share) are not counted, and the page says so; a visitor's page view and what follows it
 * within the same unlock (preview, download, raw text) count once.
 */
import { Buffer } from "node:buffer";
import { expect, test } from "./fixtures.ts";
import { HomePage } from "./pages/home_page.ts";
import { PastePage } from "./pages/paste_page.ts";
import { FileViewPage, uploadFile } from "./pages/file_view_page.ts";
import {
  asAdmin,
  asVisitor,
  createPaste,
  downloadBytes,
  newAdminPage,
  uniqueSlug,
} from "./pages/test_data.ts";

test.use({ locale: "en-US" });

test("the admin opens a new 1-view paste from the success card without using its view", async ({ browser, adminToken }) => {
  const admin = await newAdminPage(browser, adminToken);
  let shareLink = "";
  try {
    const home = new HomePage(admin.page);
    await home.goto();
    await home.typeMarkdown("# For one reader");
    await home.maxViews.fill("1");
    shareLink = await home.create();
    await home.result.getByRole("link", { name: "Open share" }).click();
    const share = new PastePage(admin.page);
    await expect(share.content.getByRole("heading", { name: "For one reader" })).toBeVisible();
    await expect(admin.page.getByText("Your own view: not counted")).toBeVisible();
    await expect(admin.page.locator(".paste-facts")).toContainText("0 / 1");
    // Once more: still the owner's, still not counted.
    await admin.page.reload();
    await expect(share.content.getByRole("heading", { name: "For one reader" })).toBeVisible();
    await expect(admin.page.getByText("Your own view: not counted")).toBeVisible();
  } finally {
    await admin.context.close();
  }

  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    expect((await share.goto(shareLink))?.status()).toBe(200);
    await expect(share.content.getByRole("heading", { name: "For one reader" })).toBeVisible();
    await expect(page.getByText("Your own view: not counted")).toHaveCount(0);
    await expect(page.locator(".paste-facts")).toContainText("1 / 1");
  });
  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    expect((await share.goto(shareLink))?.status()).toBe(410);
    await expect(share.expiredHeading).toBeVisible();
  });
});

test("the admin opens and downloads a 1-view file share without using its view", async ({ browser, request, adminToken }) => {
  const body = Buffer.from("one reader only\n");
  const file = await uploadFile(request, adminToken, "e2e-once.txt", body, { max_views: "1" });
  await asAdmin(browser, adminToken, async ({ page }) => {
    const view = new FileViewPage(page);
    await view.open(file.slug);
    await expect(view.content("e2e-once.txt")).toHaveText("one reader only");
    await expect(view.ownViewNote).toBeVisible();
    await expect(view.fact("Views")).toContainText("0 / 1");
    expect(Buffer.compare(await downloadBytes(view.downloadLink()), body)).toBe(0);
  }, { acceptDownloads: true });

  await asVisitor(browser, async ({ page }) => {
    const view = new FileViewPage(page);
    await view.open(file.slug);
    await expect(view.content("e2e-once.txt")).toHaveText("one reader only");
    await expect(view.ownViewNote).toHaveCount(0);
  });
});

test("a visitor's page view, preview and download of a 1-view file count once", async ({ browser, request, adminToken }) => {
  const body = Buffer.from("preview and download\n");
  const file = await uploadFile(request, adminToken, "e2e-one-view.txt", body, { max_views: "1" });
  await asVisitor(browser, async ({ page }) => {
    const view = new FileViewPage(page);
    await view.open(file.slug);
    await expect(view.content("e2e-one-view.txt")).toHaveText("preview and download");
    await expect(view.fact("Views")).toHaveText("1 / 1");
    for (let i = 0; i < 2; i++) {
      expect(Buffer.compare(await downloadBytes(view.downloadLink()), body)).toBe(0);
    }
  }, { acceptDownloads: true });
  await asVisitor(browser, async ({ page }) => {
    const res = await page.goto(`/file/${file.slug}`);
    expect(res?.status()).toBe(410);
    await expect(new FileViewPage(page).expiredText).toBeVisible();
  });
});

test("a visitor's page view and its raw text of a 1-view paste count once", async ({ browser, request, adminToken }) => {
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "raw after reading",
    slug: uniqueSlug("raw-once"),
    max_views: 1,
  });
  await asVisitor(browser, async ({ context, page }) => {
    const share = new PastePage(page);
    await share.goto(paste.slug);
    await expect(share.content).toContainText("raw after reading");
    const [tab] = await Promise.all([context.waitForEvent("page"), share.rawLink.click()]);
    await expect(tab.locator("body")).toHaveText("raw after reading");
  });
  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    expect((await share.goto(paste.slug))?.status()).toBe(410);
    await expect(share.expiredHeading).toBeVisible();
  });
});
