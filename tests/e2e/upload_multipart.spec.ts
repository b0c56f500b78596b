/**
 * Multipart upload resumed after a reload (docs/PRODUCT.md §4.3, §9.1): a 12 MiB file
 * goes up in 5 MiB parts (the multipart threshold is lowered to 6 MiB for the test); part 3
 * is refused by the network, so parts 1 and 2 finish while part 3 retries; the page reloads in
 * the middle. Choosing the same file again resumes: list-parts reports parts 1 and 2, only
 * part 3 is PUT, the upload completes, and a visitor downloads exactly the same bytes.
 */
import type { Browser, BrowserContext, Page, Request } from "@playwright/test";
import { UploadPage } from "./pages/upload_page.ts";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { expect, test } from "./fixtures.ts";
import {
  asAdmin,
  downloadAsVisitor,
  newContext,
  randomFile,
  uniqueSlug,
} from "./pages/test_data.ts";
import { holdAnswers } from "./pages/held_answers.ts";

test.use({ locale: "en-US" });

const MiB = 1024 * 1024;
const RESUME_KEY = "cubby.multipart.resume";
/** A part PUT to a presigned part URL (local storage or a bucket). */
const PART_URL = /[?&]partNumber=(\d+)(&|$)/;

/** The parts of the upload screen this spec uses. */
class UploadScreen extends UploadPage {
  /** Chooses a file of random bytes and starts its upload. */
  async upload(name: string, size: number): Promise<void> {
    await this.fileInput.setInputFiles({
      name,
      mimeType: "application/octet-stream",
      buffer: randomBytes(size),
    });
    await this.startButton.click();
  }

  async cancel(name: string): Promise<void> {
    await this.item(name).getByRole("button", { name: `Cancel the upload of ${name}` }).click();
  }
}

/** Runs `fn` on an admin page whose uploads use multipart from the first byte, closing it after. */
async function asMultipartUploader(
  browser: Browser,
  adminToken: string,
  fn: (admin: { context: BrowserContext; page: Page }) => Promise<void>,
): Promise<void> {
  await asAdmin(browser, adminToken, async (admin) => {
    // Before the page's first navigation, so the app reads it when it starts.
    await admin.context.addInitScript(() => localStorage.setItem("cubby.multipartThreshold", "1"));
    await fn(admin);
  });
}

/** The status of list-parts for an upload: 404 once it is gone. */
async function partsStatus(page: Page, adminToken: string, fileId: string): Promise<number> {
  const res = await page.request.post("/api/s3/multipart/list-parts", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { file_id: fileId },
  });
  return res.status();
}

test("a multipart upload interrupted by a reload resumes with the missing part only", async ({ browser, adminToken }) => {
  test.setTimeout(120_000);
  const name = `${uniqueSlug("multipart")}.bin`;
  const { dir, path, bytes } = await randomFile("cubby-e2e-multipart-", name, 12 * MiB + 12_345);
  const context = await newContext(browser, { adminToken });
  try {
    await context.addInitScript((threshold) => {
      localStorage.setItem("cubby.multipartThreshold", String(threshold));
    }, 6 * MiB);
    const page = await context.newPage();
    // The page asks before unloading while an upload runs; the test says yes.
    page.on("dialog", (dialog) => void dialog.accept());
    const screen = new UploadScreen(page);

    // First attempt: part 3 never gets through, parts 1 and 2 do.
    const refusePart3 = (route: import("@playwright/test").Route) =>
      route.request().method() === "PUT" ? route.abort("connectionreset") : route.continue();
    await context.route(/[?&]partNumber=3(&|$)/, refusePart3);
    await screen.goto();
    await screen.fileInput.setInputFiles(path);
    await expect(screen.item(name)).toContainText("Ready");
    await screen.startButton.click();
    await expect(screen.item(name)).toContainText("Parts 2 of 3 done", { timeout: 30_000 });
    await expect(screen.item(name)).toContainText("Uploading");

    // Reload in the middle of the upload (part 3 is still being retried).
    await page.reload();
    await screen.goto();
    const saved = JSON.parse(
      await page.evaluate((k) => localStorage.getItem(k) ?? "[]", RESUME_KEY),
    );
    expect(saved.filter((r: { name: string }) => r.name === name)).toHaveLength(1);
    await context.unroute(/[?&]partNumber=3(&|$)/, refusePart3);

    // Second attempt with the same file: it resumes.
    const puts: number[] = [];
    page.on("request", (req: Request) => {
      const m = req.url().match(PART_URL);
      if (req.method() === "PUT" && m) puts.push(Number(m[1]));
    });
    await screen.fileInput.setInputFiles(path);
    await expect(screen.item(name)).toContainText(
      "An unfinished upload of this file was found",
    );
    const listParts = page.waitForResponse(
      (r) => r.url().endsWith("/api/s3/multipart/list-parts"),
      { timeout: 60_000 },
    );
    const refresh = page.waitForResponse(
      (r) => r.url().endsWith("/api/s3/multipart/refresh-urls"),
      { timeout: 60_000 },
    );
    await screen.startButton.click();
    const listed = await (await listParts).json();
    expect(listed.data.parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 2]);
    const refreshed = await (await refresh).json();
    expect(refreshed.data.presigned_urls.map((p: { partNumber: number }) => p.partNumber))
      .toEqual([3]);

    const link = screen.shareLink(name);
    await expect(link).toBeVisible({ timeout: 60_000 });
    await expect(screen.item(name)).toContainText("Uploaded");
    expect(puts, "only the missing part is sent again").toEqual([3]);
    expect(
      JSON.parse(await page.evaluate((k) => localStorage.getItem(k) ?? "[]", RESUME_KEY))
        .filter((r: { name: string }) => r.name === name),
      "a finished upload is forgotten",
    ).toHaveLength(0);

    const downloaded = await downloadAsVisitor(browser, await link.inputValue());
    expect(downloaded.length).toBe(bytes.length);
    expect(downloaded.equals(bytes)).toBe(true);
  } finally {
    await context.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("cancelling a multipart upload aborts it on the server", async ({ browser, adminToken }) => {
  test.setTimeout(60_000);
  const name = `${uniqueSlug("multipart-cancel")}.bin`;
  await asMultipartUploader(browser, adminToken, async ({ context, page }) => {
    // Hold part 2 until the test has cancelled, so the upload is surely still running.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => release = r);
    await context.route(/[?&]partNumber=2(&|$)/, async (route) => {
      await held;
      await route.abort().catch(() => {});
    });
    const screen = new UploadScreen(page);
    await screen.goto();
    await screen.upload(name, 6 * MiB);
    await expect(screen.item(name)).toContainText("Parts 1 of 2 done", { timeout: 30_000 });
    const abort = page.waitForRequest((r) => r.url().endsWith("/api/s3/multipart/abort"), {
      timeout: 60_000,
    });
    await screen.cancel(name);
    const sent = (await abort).postDataJSON();
    release();
    await expect(screen.item(name)).toContainText("Cancelled");
    const res = await (await abort).response();
    expect(res?.status()).toBe(200);
    // The upload is gone: listing its parts now answers 404.
    expect(await partsStatus(page, adminToken, sent.file_id)).toBe(404);
    expect(await page.evaluate((k) => localStorage.getItem(k), RESUME_KEY) ?? "[]")
      .not.toContain(name);
  });
});

test("cancelling while the server starts a multipart upload still aborts it there", async ({ browser, adminToken }) => {
  test.setTimeout(60_000);
  const name = `${uniqueSlug("multipart-early")}.bin`;
  await asMultipartUploader(browser, adminToken, async ({ context, page }) => {
    // The server starts the upload, but its answer reaches the page only after the cancel.
    const init = await holdAnswers(context, /\/api\/s3\/multipart\/init$/);
    const screen = new UploadScreen(page);
    await screen.goto();
    await screen.upload(name, 2 * MiB);
    const fileId = (await init.answered).data.file_id as string;
    const abort = page.waitForRequest((r) => r.url().endsWith("/api/s3/multipart/abort"));
    await screen.cancel(name);
    init.release();
    await expect(screen.item(name)).toContainText("Cancelled");
    expect((await abort).postDataJSON().file_id).toBe(fileId);
    expect((await (await abort).response())?.status()).toBe(200);
    expect(await partsStatus(page, adminToken, fileId)).toBe(404);
  });
});
