/**
 * Same names in the mount explorer: an upload or a copy onto files the folder already holds
 * asks first (skip, keep both, overwrite), as File Browser and Cloudreve do; a new folder whose
 * name exists says so instead of "created".
 */
import type { APIRequestContext } from "@playwright/test";
import { Buffer } from "node:buffer";
import { expect, test } from "./fixtures.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import { newAdminPage } from "./pages/test_data.ts";
import { freshMount, listNames, putFile, removeTemporaryRoots } from "./pages/mount_data.ts";

test.use({ locale: "en-US" });
test.afterAll(removeTemporaryRoots);

async function readText(request: APIRequestContext, token: string, path: string) {
  const res = await request.get(`/api/fs/download?path=${encodeURIComponent(path)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return await res.text();
}

test("an upload onto a file that exists asks: keep both, skip or overwrite", async ({ browser, request, adminToken }) => {
  const root = await freshMount(request, adminToken, "same");
  await putFile(request, adminToken, root, "a.txt", "first");
  const { context, page } = await newAdminPage(browser, adminToken);
  try {
    const ex = new ExplorerPage(page);
    await ex.goto(root);
    await expect(ex.entry("a.txt")).toBeVisible();
    const send = (text: string) =>
      ex.fileInput.setInputFiles({
        name: "a.txt",
        mimeType: "text/plain",
        buffer: Buffer.from(text),
      });
    const ask = page.getByRole("alertdialog", { name: `"a.txt" already exists in ${root}` });

    await send("second");
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Keep both" }).click();
    await expect(ex.entry("a (1).txt")).toBeVisible();
    expect(await readText(request, adminToken, `${root}/a.txt`)).toBe("first");
    expect(await readText(request, adminToken, `${root}/a (1).txt`)).toBe("second");

    await send("third");
    await ask.getByRole("button", { name: "Skip" }).click();
    await expect(page.getByText("Skipped 1 file that already exists.")).toBeVisible();
    expect(await readText(request, adminToken, `${root}/a.txt`)).toBe("first");

    await send("fourth");
    await ask.getByRole("button", { name: "Overwrite" }).click();
    await expect.poll(() => readText(request, adminToken, `${root}/a.txt`)).toBe("fourth");
    expect(await listNames(request, adminToken, root)).toEqual(["a (1).txt", "a.txt"]);
  } finally {
    await context.close();
  }
});

test("a new folder whose name exists says it exists, not created", async ({ browser, request, adminToken }) => {
  const root = await freshMount(request, adminToken, "dir");
  const mkdir = await request.post("/api/fs/mkdir", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { path: `${root}/docs` },
  });
  expect(mkdir.status()).toBe(201);
  const { context, page } = await newAdminPage(browser, adminToken);
  try {
    const ex = new ExplorerPage(page);
    await ex.goto(root);
    await ex.newFolderButton.click();
    const dialog = ex.dialog("New folder");
    const name = dialog.getByLabel("Folder name");
    await name.fill("docs");
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect(name).toHaveAccessibleDescription('A folder named "docs" already exists here');
    await expect(page.getByText("Folder docs created")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("a copy onto names the target holds asks first, and keeps both", async ({ browser, request, adminToken }) => {
  const src = await freshMount(request, adminToken, "csrc");
  const dst = await freshMount(request, adminToken, "cdst");
  await putFile(request, adminToken, src, "x.txt", "new");
  await putFile(request, adminToken, dst, "x.txt", "old");
  const { context, page } = await newAdminPage(browser, adminToken);
  try {
    const ex = new ExplorerPage(page);
    await ex.goto(src);
    await ex.act("x.txt", "Copy to…");
    const copy = ex.dialog("Copy x.txt");
    await copy.getByRole("textbox").fill(dst);
    await copy.getByRole("button", { name: "Go" }).click();
    await copy.getByRole("button", { name: `Copy to ${dst}` }).click();
    const ask = page.getByRole("alertdialog", { name: `"x.txt" already exists in ${dst}` });
    await ask.getByRole("button", { name: "Keep both" }).click();
    await expect(copy).toBeHidden();
    await expect(ex.tasks.getByRole("listitem").first()).toContainText("Completed", {
      timeout: 30_000,
    });
    expect(await listNames(request, adminToken, dst)).toEqual(["x (1).txt", "x.txt"]);
    expect(await readText(request, adminToken, `${dst}/x.txt`)).toBe("old");
  } finally {
    await context.close();
  }
});
