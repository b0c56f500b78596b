/**
 * File upload end to end (docs/PRODUCT.md §2.3, §4.3): the admin logs in, adds
 * a file on /upload, watches its progress bar, gets the share link, and a visitor in a fresh
 * browser context opens that link and downloads exactly the bytes that were uploaded.
 * The upload is throttled (Chromium's network emulation) so the progress stays observable.
 */
import type { Locator } from "@playwright/test";
import { PageObject } from "./pages/page_object.ts";
import type { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { ADMIN, expect, test } from "./fixtures.ts";
import { LoginPage } from "./pages/login_page.ts";
import { asVisitor, downloadBytes, uniqueSlug } from "./pages/test_data.ts";

test.use({ locale: "en-US" });

/** The upload screen (client/features/upload/UploadPage.tsx). */
class UploadPage extends PageObject {
  readonly heading = this.h1("Upload files");
  readonly fileInput = this.page.getByLabel("Files to upload");
  readonly chooseButton = this.page.getByRole("button", { name: "Choose files" });
  readonly maxSize = this.page.getByText(/^Max file size: /);
  readonly storage = this.page.getByLabel("Storage", { exact: true });
  readonly startButton = this.page.getByRole("button", { name: /^Start upload/ });
  readonly queue = this.page.getByRole("region", { name: "Files" });
  readonly recent = this.page.getByRole("region", { name: "Recent uploads" });

  goto(): Promise<void> {
    return this.gotoAndWait("/upload", this.heading);
  }

  /** The queue entry of a file, by name. */
  item(name: string): Locator {
    return this.queue.getByRole("listitem").filter({ hasText: name });
  }

  /** The progress bar of a file while it uploads. */
  progress(name: string): Locator {
    return this.page.getByRole("progressbar", { name: `Upload progress of ${name}` });
  }

  /** The share link of a finished file. */
  shareLink(name: string): Locator {
    return this.item(name).getByRole("textbox", { name: "Share link" });
  }
}

/** The public file page (`/file/{slug}`) as a visitor sees it. */
class FileSharePage extends PageObject {
  readonly downloadLink = this.page.getByRole("link", { name: "Download", exact: true }).first();

  /** Clicks "Download" and returns the downloaded bytes. */
  async download(): Promise<Buffer> {
    return await downloadBytes(this.downloadLink);
  }
}

test("upload a file with progress, then a visitor downloads the same bytes", async ({ page, browser }) => {
  test.setTimeout(60_000);
  const upload = new UploadPage(page);
  const login = new LoginPage(page);

  // Logged out, /upload asks for a login and comes back.
  await page.goto("/upload");
  await expect(login.heading).toBeVisible();
  await login.loginWithPassword(ADMIN.username, ADMIN.password);
  await expect(page).toHaveURL(/\/upload$/);
  await expect(upload.heading).toBeVisible();
  await expect(upload.chooseButton).toBeVisible();
  await expect(upload.maxSize).toBeVisible();
  // The default storage config is selected once the list arrives.
  await expect(upload.storage).toHaveValue(/.+/);

  // 1.5 MB of random bytes at 512 KB/s: about three seconds of visible progress.
  const name = `${uniqueSlug("upload")}.bin`;
  const bytes = randomBytes(1_500_000);
  await upload.fileInput.setInputFiles({
    name,
    mimeType: "application/octet-stream",
    buffer: bytes,
  });
  await expect(upload.item(name)).toContainText("Ready");
  await upload.throttleUploads(512 * 1024);
  await upload.startButton.click();

  const progress = upload.progress(name);
  await expect(progress).toBeVisible();
  // The bar moves: some bytes are sent before the upload ends.
  await expect.poll(async () => Number(await progress.getAttribute("value") ?? 0), {
    timeout: 15_000,
  }).toBeGreaterThan(0);
  await expect(upload.item(name)).toContainText(/\d+%/);

  const link = upload.shareLink(name);
  await expect(link).toBeVisible({ timeout: 30_000 });
  await expect(upload.item(name)).toContainText("Uploaded");
  const url = await link.inputValue();
  expect(url).toMatch(/\/file\/[A-Za-z0-9_-]+$/);
  await expect(upload.recent.getByRole("link", { name })).toBeVisible();

  // A visitor with nothing in common with the uploader opens the link and downloads.
  await asVisitor(browser, async ({ page }) => {
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    const share = new FileSharePage(page);
    await expect(share.downloadLink).toBeVisible();
    const downloaded = await share.download();
    expect(downloaded.length).toBe(bytes.length);
    expect(downloaded.equals(bytes)).toBe(true);
  });
});

test("the 1 day preset sends expires_in in hours: the share expires in 24 hours", async ({ page, request }) => {
  const upload = new UploadPage(page);
  const login = new LoginPage(page);
  await page.goto("/upload");
  await login.loginWithPassword(ADMIN.username, ADMIN.password);
  await expect(upload.heading).toBeVisible();
  await expect(upload.storage).toHaveValue(/.+/);
  await page.getByLabel("Expires after").selectOption({ label: "1 day" });
  const name = `${uniqueSlug("day")}.bin`;
  await upload.fileInput.setInputFiles({
    name,
    mimeType: "application/octet-stream",
    buffer: randomBytes(64),
  });
  const start = Date.now();
  await upload.startButton.click();
  const link = upload.shareLink(name);
  await expect(link).toBeVisible({ timeout: 30_000 });
  const slug = (await link.inputValue()).split("/").pop();

  const res = await request.get(`/api/public/files/${slug}`);
  expect(res.status()).toBe(200);
  const expiresAt = Date.parse((await res.json()).data.expires_at);
  const day = 24 * 3_600_000;
  expect(expiresAt).toBeGreaterThanOrEqual(start + day - 60_000);
  expect(expiresAt).toBeLessThanOrEqual(Date.now() + day + 60_000);
});
