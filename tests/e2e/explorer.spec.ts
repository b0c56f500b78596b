/**
 * The mount explorer end to end (docs/PRODUCT.md §2.3, §4.2, §5.4 and §9.1):
 * uploading with progress, folders, renaming, deleting, a copy task with its progress, the
 * gallery view and its settings, search, a pack download that is a valid zip, the touch
 * long-press menu, and an API key confined to its base path. Every test works in a mount of its
 * own, backed by a local storage config in a fresh temporary directory.
 */
import type { Browser } from "@playwright/test";
import { Buffer } from "node:buffer";
import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { ADMIN, expect, sharedServerUrl, test } from "./fixtures.ts";
import { ALL_PERMISSIONS } from "../../shared/permissions.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import { asKeyHolder, newAdminPage, newContext } from "./pages/test_data.ts";
import { readZipEntries } from "./pages/zip_entries.ts";
import { holdAnswers } from "./pages/held_answers.ts";
import {
  createApiKey,
  freshMount,
  hasRoute,
  listNames,
  openUploads,
  putFile,
  removeTemporaryRoots,
  tinyPng,
  uniqueSegment,
} from "./pages/mount_data.ts";

test.use({ locale: "en-US" });
test.afterAll(removeTemporaryRoots);

/** An admin page (in a fresh context) on the explorer, opened at `root`. */
async function openExplorer(browser: Browser, token: string, root: string) {
  const { context, page } = await newAdminPage(browser, token);
  const ex = new ExplorerPage(page);
  await ex.goto(root);
  return { context, page, ex };
}

test.describe("mount explorer", () => {
  test("upload with progress, new folder, rename and delete", async ({ browser, adminToken, request }) => {
    test.slow(); // Real transfers on a shared machine.
    const root = await freshMount(request, adminToken, "ops");
    const { context, ex } = await openExplorer(browser, adminToken, root);
    await expect(ex.page.getByText("This folder is empty.", { exact: false })).toBeVisible();

    // Upload 3 MiB at 1 MiB/s: the progress bar shows before the file lands in the list.
    const bytes = randomBytes(3 * 1024 * 1024);
    await ex.throttleUploads(1024 * 1024);
    await ex.fileInput.setInputFiles({
      name: "big.bin",
      mimeType: "application/octet-stream",
      buffer: bytes,
    });
    await expect(ex.uploadProgress("big.bin")).toBeVisible();
    await expect(ex.uploads.getByText(/\d+% · .*\/s/)).toBeVisible();
    await expect(ex.uploads.getByText("Uploaded")).toBeVisible({ timeout: 20_000 });
    await expect(ex.entry("big.bin")).toContainText("3 MB");
    expect(await listNames(request, adminToken, root)).toEqual(["big.bin"]);

    // New folder.
    await ex.newFolderButton.click();
    const mk = ex.dialog("New folder");
    await mk.getByLabel("Folder name").fill("a/b");
    await mk.getByRole("button", { name: "Create" }).click();
    await expect(mk.getByText("Enter a name without slashes")).toBeVisible();
    await mk.getByLabel("Folder name").fill("docs");
    await mk.getByRole("button", { name: "Create" }).click();
    await expect(mk).toBeHidden();
    await expect(ex.entry("docs")).toBeVisible();

    // Rename the file.
    await ex.act("big.bin", "Rename");
    const rn = ex.dialog("Rename big.bin");
    await rn.getByLabel("New name").fill("renamed.bin");
    await rn.getByRole("button", { name: "Rename" }).click();
    await expect(ex.entry("renamed.bin")).toBeVisible();
    await expect(ex.entry("big.bin")).toHaveCount(0);
    expect(await listNames(request, adminToken, root)).toEqual(["docs", "renamed.bin"]);

    // Delete both with the batch bar.
    await ex.select("docs");
    await ex.select("renamed.bin");
    await expect(ex.selection).toContainText("2 selected");
    await ex.selection.getByRole("button", { name: "Delete" }).click();
    const del = ex.page.getByRole("alertdialog", { name: "Delete" });
    await del.getByRole("button", { name: "Delete" }).click();
    await expect(ex.entry("docs")).toHaveCount(0);
    await expect(ex.entry("renamed.bin")).toHaveCount(0);
    expect(await listNames(request, adminToken, root)).toEqual([]);
    await context.close();
  });

  test("a large file goes up in parts straight to storage; cancelling aborts it", async ({ browser, adminToken, request }) => {
    test.slow(); // Real transfers on a shared machine.
    const root = await freshMount(request, adminToken, "parts");
    const { context, page, ex } = await openExplorer(browser, adminToken, root);
    // Files from 1 MiB up use multipart here; the server cuts 5 MiB parts.
    await page.evaluate(() => localStorage.setItem("cubby.multipartThreshold", String(1 << 20)));
    const bytes = randomBytes(11 * 1024 * 1024 + 321);
    await ex.throttleUploads(6 * 1024 * 1024);
    const partPuts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "PUT") partPuts.push(r.url());
    });
    // Handing 11 MiB to the browser over CDP can take a while on a loaded machine.
    const init = page.waitForRequest(/\/api\/fs\/multipart\/init$/, { timeout: 60_000 });
    await ex.fileInput.setInputFiles({
      name: "parts.bin",
      mimeType: "application/octet-stream",
      buffer: bytes,
    }, { timeout: 60_000 });
    await expect(ex.uploadProgress("parts.bin")).toBeVisible();
    await init;
    await expect(ex.uploads.getByText("Uploaded")).toBeVisible({ timeout: 30_000 });
    expect(partPuts.length, "three parts: 5 MiB, 5 MiB and the rest").toBe(3);
    const res = await request.get(
      `/api/fs/download?path=${encodeURIComponent(`${root}/parts.bin`)}`,
      {
        headers: { authorization: `Bearer ${adminToken}` },
      },
    );
    expect(Buffer.compare(Buffer.from(await res.body()), bytes)).toBe(0);

    // Cancelled while its parts are going up: nothing is left on the server.
    await ex.throttleUploads(512 * 1024);
    await ex.fileInput.setInputFiles({
      name: "gone.bin",
      mimeType: "application/octet-stream",
      buffer: randomBytes(6 * 1024 * 1024),
    });
    await expect(ex.uploadProgress("gone.bin")).toBeVisible();
    await ex.cancelUpload("gone.bin");
    await expect(ex.uploads.getByText("Cancelled")).toBeVisible();
    await expect.poll(() => openUploads(request, adminToken, root)).toBe(0);
    expect(await listNames(request, adminToken, root)).toEqual(["parts.bin"]);
    await context.close();
  });

  test("cancelling while the server starts the upload still leaves nothing behind", async ({ browser, adminToken, request }) => {
    const root = await freshMount(request, adminToken, "setup");
    const { context, page, ex } = await openExplorer(browser, adminToken, root);
    await page.evaluate(() => localStorage.setItem("cubby.multipartThreshold", String(1 << 20)));
    // The server starts the upload, but its answer reaches the page only after the cancel.
    const init = await holdAnswers(page, /\/api\/fs\/multipart\/init$/);
    await ex.fileInput.setInputFiles({
      name: "early.bin",
      mimeType: "application/octet-stream",
      buffer: randomBytes(2 * 1024 * 1024),
    });
    await init.answered;
    expect(await openUploads(request, adminToken, root)).toBe(1);
    await ex.cancelUpload("early.bin");
    init.release();
    await expect(ex.uploads.getByText("Cancelled")).toBeVisible();
    await expect.poll(() => openUploads(request, adminToken, root)).toBe(0);
    expect(await listNames(request, adminToken, root)).toEqual([]);
    await context.close();
  });

  test("preview through ?preview=, move between files, edit and save a text file", async ({ browser, adminToken, request }) => {
    const root = await freshMount(request, adminToken, "prev");
    await putFile(request, adminToken, root, "a.md", "# Title A\n\nbody");
    await putFile(request, adminToken, root, "b.txt", "plain b");
    const { context, page, ex } = await openExplorer(browser, adminToken, root);
    await ex.entryLink("a.md").click();
    await expect(page).toHaveURL(/\?preview=a\.md$/);
    const a = ex.dialog("a.md");
    await expect(a.getByRole("heading", { name: "Title A" })).toBeVisible();
    await a.getByRole("button", { name: "Next" }).click();
    const b = ex.dialog("b.txt");
    await expect(b).toContainText("plain b");
    await expect(page).toHaveURL(/\?preview=b\.txt$/);

    await b.getByRole("button", { name: "Edit" }).click();
    const editor = b.getByLabel("Content of b.txt");
    await expect(editor).toHaveValue("plain b");
    await editor.fill("edited in the browser");
    await b.getByRole("button", { name: "Save" }).click();
    // Saved: the editor closes and the preview shows the new text.
    await expect(editor).toHaveCount(0);
    await expect(b.getByRole("region", { name: "Contents of b.txt" }))
      .toHaveText("edited in the browser");
    const saved = await request.get(
      `/api/fs/download?path=${encodeURIComponent(`${root}/b.txt`)}`,
      {
        headers: { authorization: `Bearer ${adminToken}` },
      },
    );
    expect(await saved.text()).toBe("edited in the browser");
    await b.getByRole("button", { name: "Close" }).click();
    await expect(page).toHaveURL(new RegExp(`/mount-explorer${root}$`));
    await context.close();
  });

  test("a large folder lists to the end, page by page, as it scrolls", async ({ browser, adminToken, request }) => {
    test.slow(); // Real transfers on a shared machine.
    const root = await freshMount(request, adminToken, "big");
    const names = Array.from({ length: 450 }, (_, i) => `f${String(i).padStart(3, "0")}.txt`);
    for (let i = 0; i < names.length; i += 25) {
      await Promise.all(
        names.slice(i, i + 25).map((n) => putFile(request, adminToken, root, n, n)),
      );
    }
    const { context, page, ex } = await openExplorer(browser, adminToken, root);
    // The first page holds 200 entries; scrolling to the end loads the rest.
    await expect(page.getByText("200 items loaded, more to come")).toBeVisible();
    await expect(async () => {
      await page.mouse.wheel(0, 100_000);
      await expect(page.getByText("450 items", { exact: true })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(ex.table.locator("tbody tr")).toHaveCount(450);
    await expect(ex.entry("f449.txt")).toBeVisible();
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    await context.close();
  });

  test("a copy runs as a task with its progress; copying a folder into itself warns", async ({ browser, adminToken, request }) => {
    test.slow(); // Real transfers on a shared machine.
    const root = await freshMount(request, adminToken, "copy");
    for (let i = 0; i < 30; i++) {
      await putFile(request, adminToken, `${root}/src/sub`, `f${i}.txt`, `file ${i}\n`);
    }
    await request.post("/api/fs/mkdir", {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { path: `${root}/dst` },
    });
    const { context, ex } = await openExplorer(browser, adminToken, root);

    // Into itself: a warning and a question, and going back changes nothing.
    await ex.act("src", "Copy to…");
    const copy = ex.dialog("Copy src");
    await copy.getByRole("button", { name: "src" }).click();
    await copy.getByRole("button", { name: "Copy to /" + root.slice(1) + "/src" }).click();
    await expect(copy.getByRole("alert")).toContainText("into itself or one of its subfolders");
    await expect(copy.getByText("Copy anyway?")).toBeVisible();
    await copy.getByRole("button", { name: "Back" }).click();

    // Into dst: a task whose progress the task manager shows until it completes.
    await copy.getByRole("button", { name: "↑ Parent folder" }).click();
    await copy.getByRole("button", { name: "dst" }).click();
    await copy.getByRole("button", { name: `Copy to ${root}/dst` }).click();
    await expect(copy).toBeHidden();
    await expect(ex.tasks).toBeVisible();
    const task = ex.tasks.getByRole("listitem").first();
    await expect(task.getByRole("progressbar", { name: "Progress of the Copy task" }))
      .toBeVisible();
    await expect(task).toContainText("Completed", { timeout: 30_000 });
    await expect(task).toContainText("30 done, 0 failed, 0 skipped of 30");
    expect((await listNames(request, adminToken, `${root}/dst/src/sub`)).length).toBe(30);
    await context.close();
  });

  test("gallery view: columns and spacing change the layout, images only, sort", async ({ browser, adminToken, request }) => {
    const root = await freshMount(request, adminToken, "gal");
    await putFile(request, adminToken, root, "a.png", tinyPng(10), "image/png");
    await putFile(request, adminToken, root, "b.png", tinyPng(5000), "image/png");
    await putFile(request, adminToken, root, "c.png", tinyPng(100), "image/png");
    await putFile(request, adminToken, root, "notes.txt", "hello");
    const context = await newContext(browser, {
      adminToken,
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    const ex = new ExplorerPage(page);
    await ex.goto(root);
    await ex.view("Gallery");
    await expect(ex.gallery).toBeVisible();
    // Thumbnails load from signed links.
    await expect(ex.entry("a.png").locator("img")).toHaveJSProperty("complete", true);
    await expect.poll(() =>
      ex.entry("a.png").locator("img").evaluate((i: HTMLImageElement) => i.naturalWidth)
    ).toBe(1);

    const columns = () =>
      ex.gallery.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
    const width = () => ex.entry("a.png").evaluate((el) => el.getBoundingClientRect().width);
    await ex.settingsButton.click();
    await expect(ex.settings).toBeVisible();
    await ex.settings.getByLabel("Columns").fill("2");
    await expect.poll(columns).toBe(2);
    const wide = await width();
    await ex.settings.getByLabel("Columns").fill("6");
    await expect.poll(columns).toBe(6);
    expect(await width()).toBeLessThan(wide / 2);
    await ex.settings.getByLabel("Horizontal spacing").fill("30");
    await expect.poll(() => ex.gallery.evaluate((el) => getComputedStyle(el).columnGap)).toBe(
      "30px",
    );
    await ex.settings.getByLabel("Vertical spacing").fill("20");
    await expect.poll(() => ex.gallery.evaluate((el) => getComputedStyle(el).rowGap)).toBe("20px");

    // Images only hides the text file; sorting by size, largest first.
    await expect(ex.entry("notes.txt")).toBeVisible();
    await ex.settings.getByLabel("Images only").check();
    await expect(ex.entry("notes.txt")).toHaveCount(0);
    await ex.settings.getByLabel("Sort by").selectOption("size");
    await ex.settings.getByLabel("Sort order").selectOption("desc");
    const order = () => ex.gallery.locator(".gallery-caption").allTextContents();
    await expect.poll(order).toEqual(["b.png", "c.png", "a.png"]);

    // The settings persist across a reload.
    await page.reload();
    await ex.heading.waitFor();
    await expect.poll(columns).toBe(6);
    await expect.poll(order).toEqual(["b.png", "c.png", "a.png"]);
    await context.close();
  });

  test("search finds files by name (at least 2 characters)", async ({ browser, adminToken, request }) => {
    test.skip(
      !await hasRoute(request, adminToken, "/api/fs/search?q=zz"),
      "GET /api/fs/search is not on the server yet",
    );
    const root = await freshMount(request, adminToken, "find");
    const needle = `needle${Date.now().toString(36)}`;
    await putFile(request, adminToken, `${root}/deep/er`, `${needle}.txt`, "x");
    await putFile(request, adminToken, root, "other.txt", "y");
    const { context, page, ex } = await openExplorer(browser, adminToken, root);
    await ex.searchBox.fill("n");
    await ex.searchBox.press("Enter");
    await expect(page.getByText("Enter at least 2 characters.")).toBeVisible();
    await ex.searchBox.fill(needle);
    await ex.searchBox.press("Enter");
    await expect(ex.searchResults).toContainText(`1 results for “${needle}”`);
    await ex.searchResults.getByRole("link", { name: `${needle}.txt` }).click();
    await expect(page).toHaveURL(new RegExp(`/deep/er\\?preview=${needle}\\.txt$`));
    await expect(ex.dialog(`${needle}.txt`)).toBeVisible();
    await context.close();
  });

  test("pack download streams a valid zip of the basket", async ({ browser, adminToken, request }) => {
    const root = await freshMount(request, adminToken, "pack");
    await putFile(request, adminToken, root, "one.txt", "first file");
    await putFile(request, adminToken, `${root}/album`, "two.txt", "second file");
    await putFile(request, adminToken, `${root}/album/inner`, "三.txt", "third file");
    const { context, page, ex } = await openExplorer(browser, adminToken, root);
    await ex.act("one.txt", "Add to basket");
    await ex.select("album");
    await ex.selection.getByRole("button", { name: "Add to basket" }).click();
    await expect(ex.basketButton).toHaveText("Basket (2)");
    await ex.basketButton.click();
    await ex.basket.getByRole("button", { name: "Pack download" }).click();
    await expect(ex.basket).toContainText("Ready");
    await expect(ex.basket).toContainText("3 files");
    const downloading = page.waitForEvent("download");
    await ex.basket.getByRole("button", { name: "Download zip" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^cubby-\d{8}-\d{4}\.zip$/);
    await expect(ex.basket).toContainText("3 of 3 files packed, 0 failed");
    const entries = readZipEntries(new Uint8Array(await readFile(await download.path())));
    const text = Object.fromEntries(
      entries.map((e) => [e.name, e.data ? new TextDecoder().decode(e.data) : null]),
    );
    expect(text).toEqual({
      "one.txt": "first file",
      "album/two.txt": "second file",
      "album/inner/三.txt": "third file",
    });
    await context.close();
  });

  test("a long-press on touch opens the context menu", async ({ browser, adminToken, request }) => {
    const root = await freshMount(request, adminToken, "touch");
    await putFile(request, adminToken, root, "hold.txt", "hold me");
    // A phone: touch input, 360 px wide, logged in as the admin.
    const auth = {
      authType: "admin",
      adminToken,
      permissions: ALL_PERMISSIONS,
      lastValidated: null,
      userInfo: { id: "admin", name: ADMIN.username, basicPath: "/" },
    };
    const context = await browser.newContext({
      baseURL: sharedServerUrl(),
      hasTouch: true,
      isMobile: true,
      viewport: { width: 360, height: 740 },
      locale: "en-US",
      storageState: {
        cookies: [],
        origins: [{
          origin: new URL(sharedServerUrl()).origin,
          localStorage: [{ name: "cubby.auth", value: JSON.stringify(auth) }],
        }],
      },
    });
    const page = await context.newPage();
    const ex = new ExplorerPage(page);
    await ex.goto(root);
    const link = ex.entryLink("hold.txt");
    const box = (await link.boundingBox())!;
    const at = { clientX: box.x + 10, clientY: box.y + box.height / 2 };
    const touch = { pointerType: "touch", isPrimary: true, pointerId: 7, bubbles: true, ...at };
    // A press that moves more than 10 px is a scroll: no menu.
    await link.dispatchEvent("pointerdown", touch);
    await link.dispatchEvent("pointermove", { ...touch, clientY: at.clientY + 15 });
    await page.waitForTimeout(700);
    await link.dispatchEvent("pointerup", touch);
    await expect(ex.menu).toHaveCount(0);
    // Held still for 500 ms: the menu opens.
    await link.dispatchEvent("pointerdown", touch);
    await expect(ex.menu).toBeVisible();
    await link.dispatchEvent("pointerup", touch);
    await expect(ex.menu.getByRole("menuitem", { name: "Rename" })).toBeVisible();
    await context.close();
  });

  test("an API key is confined to its base path", async ({ browser, adminToken, request }) => {
    const mine = await freshMount(request, adminToken, "mine");
    const theirs = await freshMount(request, adminToken, "theirs");
    await putFile(request, adminToken, `${mine}/inside`, "ok.txt", "ok");
    const key = await createApiKey(
      request,
      adminToken,
      uniqueSegment("confined"),
      { mount_view: true, mount_upload: true },
      `${mine}/inside`,
    );
    await asKeyHolder(browser, key, async ({ page }) => {
      await expect(page).not.toHaveURL(/\/admin\/login/);
      const ex = new ExplorerPage(page);

      // The root, a sibling mount and the mount above the base path all lead to the base path.
      for (const path of ["/", theirs, mine, `${mine}/insider`]) {
        await ex.goto(path);
        await expect(page).toHaveURL(new RegExp(`/mount-explorer${mine}/inside$`));
        await expect(ex.entry("ok.txt")).toBeVisible();
      }
      await expect(ex.crumbs).toContainText("inside");
      // No rename, copy or delete without those bits; upload is there.
      await ex.entry("ok.txt").getByRole("button", { name: "Actions for ok.txt" }).click();
      await expect(ex.menu.getByRole("menuitem", { name: "Rename" })).toHaveCount(0);
      await expect(ex.menu.getByRole("menuitem", { name: "Delete" })).toHaveCount(0);
      await page.keyboard.press("Escape");
      await expect(ex.uploadButton).toBeVisible();

      // The server agrees: the other mount is not listed and cannot be read.
      const asKey = { authorization: `ApiKey ${key}` };
      const other = await request.get(`/api/fs/list?path=${encodeURIComponent(theirs)}`, {
        headers: asKey,
      });
      expect(other.status()).toBe(403);
      const mounts = await (await request.get("/api/mount/list", { headers: asKey })).json();
      expect(mounts.data.map((m: { mount_path: string }) => m.mount_path)).toEqual([mine]);
    });
  });
});
