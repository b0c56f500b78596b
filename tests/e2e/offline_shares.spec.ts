/**
 * What a share page and an app route show offline: a paste read online is shown with its
 * "offline copy" note; a file share read online shows its details, says the file itself needs a
 * connection and offers no download that cannot work; an app route never opened online shows
 * the offline page (home, back, retry), whose retry loads it once the connection is back.
 */
import { Buffer } from "node:buffer";
import { expect, test } from "./fixtures.ts";
import { PastePage } from "./pages/paste_page.ts";
import { PwaShell } from "./pages/pwa.ts";
import { FileViewPage, uploadFile } from "./pages/file_view_page.ts";
import { asAdmin, asVisitor, createPaste, uniqueSlug } from "./pages/test_data.ts";

test.use({ locale: "en-US" });

const COPY_NOTE = /^Offline copy saved .+: this may not be the latest version\.$/;

test("a paste read online is shown offline with its 'offline copy' note", async ({ browser, request, adminToken }) => {
  const text = `kept for later ${uniqueSlug("c")}`;
  const paste = await createPaste(request, `Bearer ${adminToken}`, { content: text });
  await asVisitor(browser, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    const share = new PastePage(page);
    await share.goto(paste.slug);
    await pwa.waitForControl();
    await expect(share.content).toContainText(text);
    await expect(page.getByTestId("offline-copy")).toHaveCount(0);

    await context.setOffline(true);
    await page.reload();
    await expect(share.content).toContainText(text);
    await expect(page.getByTestId("offline-copy")).toHaveText(COPY_NOTE);
  });
});

test("a file share read online shows its details offline, and says the file needs a connection", async ({ browser, request, adminToken }) => {
  const file = await uploadFile(
    request,
    adminToken,
    "e2e-offline.txt",
    Buffer.from("read me online\n"),
  );
  await asVisitor(browser, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    const view = new FileViewPage(page);
    await view.open(file.slug);
    await pwa.waitForControl();
    await expect(view.content("e2e-offline.txt")).toHaveText("read me online");

    await context.setOffline(true);
    await page.reload();
    await expect(view.heading()).toHaveText("e2e-offline.txt");
    await expect(page.getByTestId("offline-copy")).toHaveText(COPY_NOTE);
    await expect(page.getByRole("status").filter({ hasText: "not available offline" }))
      .toHaveText(
        "The file itself is not available offline: its preview and download need a connection.",
      );
    await expect(view.fact("Size")).toBeVisible();
    await expect(page.getByRole("link", { name: "Download" })).toHaveCount(0);
    await expect(view.content("e2e-offline.txt")).toHaveCount(0);
  });
});

test("an app route never opened online shows the offline page, and retry loads it once online", async ({ browser, adminToken }) => {
  await asAdmin(browser, adminToken, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    await pwa.openControlled();
    await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();

    await context.setOffline(true);
    await page.goto("/mount-explorer");
    await expect(pwa.offlineHeading).toBeVisible();
    await expect(pwa.pageError).toHaveCount(0);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "Back to home" })).toBeVisible();
    await expect(main.getByRole("button", { name: "Back to previous page" })).toBeVisible();
    const retry = main.getByRole("button", { name: "Retry" });
    await retry.click();
    await expect(pwa.offlineHeading).toBeVisible();

    await context.setOffline(false);
    await retry.click();
    await expect(page.getByRole("heading", { level: 1, name: "Mount explorer" })).toBeVisible();
  });
});
