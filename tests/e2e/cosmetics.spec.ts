/**
 * Small things that looked wrong: the explorer's upload row keeps its × on the name's line; the
 * file page's link box shows the whole link at 1280 px; long MIME types break between their
 * parts, not mid-word; task-list items show a checkbox, not a bullet too; a used-up file page
 * says "expired or used up", as pastes do, not "Access denied".
 */
import { Buffer } from "node:buffer";
import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import {
  asVisitor,
  createPaste,
  newAdminPage,
  newVisitorPage,
  uniqueSlug,
} from "./pages/test_data.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import { freshMount, removeTemporaryRoots } from "./pages/mount_data.ts";

test.use({ locale: "en-US" });
test.afterAll(removeTemporaryRoots);

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Uploads `name` with `type` through upload-direct as the admin; returns its slug. */
async function shareFile(
  request: import("@playwright/test").APIRequestContext,
  token: string,
  name: string,
  type: string,
  query = "",
): Promise<string> {
  const res = await request.put(`/api/upload-direct/${encodeURIComponent(name)}${query}`, {
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    data: Buffer.from("some bytes"),
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.slug;
}

/** The characters a text's lines end with (where the browser broke it), from glyph positions. */
function lineEnds(el: Locator): Promise<string[]> {
  return el.evaluate((node) => {
    const text = node.textContent ?? "";
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const glyphs: { ch: string; top: number }[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) glyphs.push({ ch: n.textContent![i], top: Math.round(rect.top) });
      }
    }
    const ends: string[] = [];
    for (let i = 1; i < glyphs.length; i++) {
      if (glyphs[i].top > glyphs[i - 1].top + 2) ends.push(glyphs[i - 1].ch);
    }
    return text.length ? ends : [];
  });
}

test("the explorer's upload row keeps its × on the name's line, at 360 and 1280 px", async ({ browser, request, adminToken }) => {
  const root = await freshMount(request, adminToken, "rows");
  for (const width of [360, 1280]) {
    const { context, page } = await newAdminPage(browser, adminToken, {
      viewport: { width, height: 800 },
    });
    try {
      const ex = new ExplorerPage(page);
      await ex.goto(root);
      const name = `row-${width}-with-a-fairly-long-name.txt`;
      await ex.fileInput.setInputFiles({
        name,
        mimeType: "text/plain",
        buffer: Buffer.from("x"),
      });
      const row = ex.uploads.getByRole("listitem").filter({ hasText: name });
      await expect(row.getByText("Uploaded")).toBeVisible();
      const dismiss = row.getByRole("button", { name: `Dismiss ${name}` });
      const x = (await dismiss.boundingBox())!;
      const badge = (await row.getByText("Uploaded").boundingBox())!;
      expect(Math.abs((x.y + x.height / 2) - (badge.y + badge.height / 2)), `${width} px`)
        .toBeLessThan(6);
    } finally {
      await context.close();
    }
  }
});

test("the file page shows its whole link at 1280 px", async ({ browser, request, adminToken }) => {
  const slug = await shareFile(request, adminToken, `${uniqueSlug("doc")}.txt`, "text/plain");
  const { context, page } = await newVisitorPage(browser, {
    viewport: { width: 1280, height: 800 },
  });
  try {
    await page.goto(`/file/${slug}`);
    const link = page.getByRole("textbox", { name: "Link" });
    await expect(link).toHaveValue(new RegExp(`/file/${slug}$`));
    const clipped = await link.evaluate((el) =>
      el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
    );
    expect(clipped, "the whole link is in view").toBe(false);
  } finally {
    await context.close();
  }
});

test("a long MIME type breaks between its parts, not mid-word, at 1280 px", async ({ browser, request, adminToken }) => {
  const slug = await shareFile(request, adminToken, `${uniqueSlug("doc")}.docx`, DOCX);
  const { context, page } = await newVisitorPage(browser, {
    viewport: { width: 1280, height: 800 },
  });
  try {
    await page.goto(`/file/${slug}`);
    const type = page.locator(".file-facts-type");
    await expect(type).toHaveText(DOCX);
    const ends = await lineEnds(type);
    expect(ends.length, "it does wrap in the side column").toBeGreaterThan(0);
    for (const ch of ends) expect("/.-+", `a line ends with "${ch}"`).toContain(ch);
  } finally {
    await context.close();
  }
});

test("a used-up file page says expired or used up, not access denied", async ({ browser, request, adminToken }) => {
  const slug = await shareFile(request, adminToken, "once.txt", "text/plain", "?max_views=1");
  const first = await request.get(`/api/public/files/${slug}`);
  expect(first.status()).toBe(200);
  await asVisitor(browser, async ({ page }) => {
    await page.goto(`/file/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "This file share has expired or is used up",
    );
    await expect(page.getByText("Access denied")).toHaveCount(0);
  });
});

test("task-list items show their checkbox without a bullet", async ({ browser, request, adminToken }) => {
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "# Tasks\n\n- [ ] to do\n- [x] done\n- plain item\n",
  });
  await asVisitor(browser, async ({ page }) => {
    await page.goto(`/paste/${paste.slug}`);
    const items = page.locator(".markdown-body li");
    await expect(items).toHaveCount(3);
    const styles = await items.evaluateAll((lis) =>
      lis.map((li) => getComputedStyle(li).listStyleType)
    );
    expect(styles).toEqual(["none", "none", "disc"]);
    await expect(items.nth(0).getByRole("checkbox")).toBeVisible();
  });
});
