/**
 * axe-core over every route and the dialogs, in the light and the dark theme: no violation of
 * its rules (WCAG 2.1 A/AA and best practices). Routes are opened as the admin (and the login
 * page and a protected share as a visitor) once their content has loaded; dialogs once open.
 * Share content includes a task list, whose checkboxes need names, and the editor holds a
 * heading and a link, whose colours One Dark made too faint.
 */
import { Buffer } from "node:buffer";
import type { Page } from "@playwright/test";
import { ADMIN, expect, loginAdmin, sharedServerUrl, test } from "./fixtures.ts";
import { axeViolations } from "./pages/axe.ts";
import { ADMIN_PAGES } from "./pages/admin_layout.ts";
import { HomePage } from "./pages/home_page.ts";
import { uploadFile } from "./pages/file_view_page.ts";
import { asAdmin, asVisitor, createPaste, uniqueSlug } from "./pages/test_data.ts";
import { freshMount, putFile, removeTemporaryRoots } from "./pages/mount_data.ts";

test.use({ locale: "en-US" });

const THEMES = ["light", "dark"] as const;
const MARKDOWN = "# Plan\n\n- [x] write it\n- [ ] ship it\n\nSee [the docs](https://example.com).";

const data = { paste: "", locked: "", file: "", mount: "" };

test.beforeAll(async ({ playwright }) => {
  const token = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
  const request = await playwright.request.newContext({ baseURL: sharedServerUrl() });
  const auth = `Bearer ${token}`;
  data.paste = (await createPaste(request, auth, { content: MARKDOWN, slug: uniqueSlug("a11y") }))
    .slug;
  data.locked = (await createPaste(request, auth, {
    content: MARKDOWN,
    slug: uniqueSlug("a11y-pw"),
    password: "a11y-password",
  })).slug;
  data.file = (await uploadFile(request, token, "e2e-a11y.txt", Buffer.from("accessible\n"))).slug;
  data.mount = await freshMount(request, token, "a11y");
  await putFile(request, token, data.mount, "notes.txt", "notes");
  await request.dispose();
});

test.afterAll(removeTemporaryRoots);

/** Every route as the admin sees it (docs/PRODUCT.md §2). */
const adminRoutes = () => [
  "/",
  "/upload",
  "/mount-explorer",
  `/mount-explorer${data.mount}`,
  `/paste/${data.paste}`,
  `/file/${data.file}`,
  "/offline",
  "/not-found",
  ...ADMIN_PAGES,
];

/** Opens `path`, waits for its heading and its data, and adds its violations to `found`. */
async function check(page: Page, path: string, found: string[]) {
  await page.goto(path);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await page.waitForLoadState("networkidle");
  for (const v of await axeViolations(page)) found.push(`${path}: ${v}`);
}

/** Adds the violations inside the open dialog to `found`. */
async function checkDialog(page: Page, name: string, found: string[]) {
  const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog")).first();
  await dialog.waitFor();
  for (const v of await axeViolations(page)) found.push(`${name}: ${v}`);
}

for (const theme of THEMES) {
  test(`every route has no axe violation (${theme})`, async ({ browser, adminToken }) => {
    test.setTimeout(180_000);
    const found: string[] = [];
    await asAdmin(browser, adminToken, async ({ page }) => {
      for (const path of adminRoutes()) await check(page, path, found);
    }, { colorScheme: theme });
    await asVisitor(browser, async ({ page }) => {
      await check(page, "/admin/login", found);
      await check(page, `/paste/${data.locked}`, found);
      await check(page, `/paste/${data.paste}`, found);
    }, { colorScheme: theme });
    expect(found, found.join("\n")).toEqual([]);
  });

  test(`the editor and the dialogs have no axe violation (${theme})`, async ({ browser, adminToken }) => {
    test.setTimeout(120_000);
    const found: string[] = [];
    await asAdmin(browser, adminToken, async ({ page }) => {
      // The editor: empty (its placeholder), with Markdown, and its preview with a task list.
      const home = new HomePage(page);
      await home.goto();
      for (const v of await axeViolations(page)) found.push(`empty editor: ${v}`);
      await home.typeMarkdown(MARKDOWN);
      await expect(home.preview.getByRole("checkbox", { name: "ship it" })).toBeAttached();
      for (const v of await axeViolations(page)) found.push(`editor with Markdown: ${v}`);

      // The share page's edit and delete dialogs.
      await page.goto(`/paste/${data.paste}`);
      await page.getByRole("button", { name: "Edit", exact: true }).click();
      await checkDialog(page, "paste edit dialog", found);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await checkDialog(page, "paste delete dialog", found);
      await page.keyboard.press("Escape");

      await page.goto(`/file/${data.file}`);
      await page.getByRole("button", { name: "Edit", exact: true }).click();
      await checkDialog(page, "file edit dialog", found);
      await page.keyboard.press("Escape");

      // The create dialogs of the admin lists.
      for (
        const [path, button] of [
          ["/admin/key-management", "Create key"],
          ["/admin/mount-management", "Create mount"],
          ["/admin/storage-config", "Add storage"],
        ]
      ) {
        await page.goto(path);
        await page.getByRole("button", { name: button }).first().click();
        await checkDialog(page, `${path} "${button}"`, found);
        await page.keyboard.press("Escape");
      }
    }, { colorScheme: theme });
    expect(found, found.join("\n")).toEqual([]);
  });
}
