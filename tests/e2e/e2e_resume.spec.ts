/**
 * An end-to-end encrypted multipart upload resumed after a reload: a 12 MiB file goes up in 5
 * MiB parts, each encrypted as it is sent; part 3 is refused by the network, the page reloads,
 * and choosing the same file again (switch on) resumes with the key kept in the tab's
 * sessionStorage: only part 3 is encrypted again and sent, and a visitor downloads the same
 * bytes. Afterwards neither the resume record nor the key material is left in the browser.
 */
import type { Request, Route } from "@playwright/test";
import { readFile, rm } from "node:fs/promises";
import { expect, test } from "./fixtures.ts";
import { newContext, randomFile, uniqueSlug } from "./pages/test_data.ts";
import { E2ESharePage, E2EUploadPage } from "./pages/e2e_pages.ts";

test.use({ locale: "en-US" });

const MiB = 1024 * 1024;
const PART_URL = /[?&]partNumber=(\d+)(&|$)/;

test("an encrypted multipart upload interrupted by a reload resumes with the missing part only", async ({ browser, adminToken }) => {
  test.setTimeout(120_000);
  const name = `${uniqueSlug("e2e-resume")}.bin`;
  const { dir, path, bytes } = await randomFile("cubby-e2e-resume-", name, 12 * MiB + 4321);
  const context = await newContext(browser, { adminToken, acceptDownloads: true });
  try {
    await context.addInitScript(() =>
      localStorage.setItem("cubby.multipartThreshold", String(6 * 1024 * 1024))
    );
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    const upload = new E2EUploadPage(page);
    const item = upload.queue.getByRole("listitem").filter({ hasText: name });

    const refusePart3 = (route: Route) =>
      route.request().method() === "PUT" ? route.abort("connectionreset") : route.continue();
    await context.route(/[?&]partNumber=3(&|$)/, refusePart3);
    await upload.goto();
    await upload.e2eSwitch.check();
    await upload.fileInput.setInputFiles(path);
    await upload.startButton.click();
    await expect(item).toContainText("Parts 2 of 3 done", { timeout: 60_000 });
    const kept = await page.evaluate(() => JSON.stringify(sessionStorage));
    expect(kept, "the key material waits in this tab").toContain("cubby.e2e.upload:");

    await page.reload();
    await upload.goto();
    await context.unroute(/[?&]partNumber=3(&|$)/, refusePart3);
    const puts: number[] = [];
    page.on("request", (req: Request) => {
      const m = req.url().match(PART_URL);
      if (req.method() === "PUT" && m) puts.push(Number(m[1]));
    });
    await upload.e2eSwitch.check();
    await upload.fileInput.setInputFiles(path);
    await expect(item).toContainText("An unfinished upload of this file was found");
    const listParts = page.waitForResponse((r) => r.url().endsWith("/api/s3/multipart/list-parts"));
    await upload.startButton.click();
    const listed = await (await listParts).json();
    expect(listed.data.parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 2]);
    await expect(upload.shareLink(name)).toBeVisible({ timeout: 60_000 });
    expect(puts, "only the missing part is sent again").toEqual([3]);
    const link = await upload.shareLink(name).inputValue();
    const left = await page.evaluate(() =>
      JSON.stringify(sessionStorage) + JSON.stringify(localStorage)
    );
    expect(left).not.toContain("cubby.e2e.upload:");
    expect(left).not.toContain(name);

    const visitor = await newContext(browser, { acceptDownloads: true });
    const view = new E2ESharePage(await visitor.newPage());
    await view.open(link);
    await expect(view.fileTitle).toHaveText(name);
    await view.workerReady();
    const download = await view.download();
    expect((await readFile((await download.path())!)).equals(bytes)).toBe(true);
    await visitor.close();
  } finally {
    await context.close();
    await rm(dir, { recursive: true, force: true });
  }
});
