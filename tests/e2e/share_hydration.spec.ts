/**
 * The share pages' own entry (client/share_main.tsx, Preact): the server renders with React and
 * Preact hydrates that markup. Preact reports no mismatch on the console, so the check is what
 * a mismatch would do: replace server-rendered elements. Every element the parser built in
 * #root must still be in the page after hydration and its effects. Then the page must work:
 * copy, theme, language (the other language's texts load on demand), password form, file
 * preview; no console errors, and none of the app entry's scripts.
 */
import type { Page } from "@playwright/test";
import { Buffer } from "node:buffer";
import { expect, test } from "./fixtures.ts";
import { PastePage } from "./pages/paste_page.ts";
import { TopNav } from "./pages/top_nav.ts";
import {
  asVisitor,
  createPaste,
  newContext,
  readPasteAsManager,
  uniqueSlug,
} from "./pages/test_data.ts";
import { PwaShell } from "./pages/pwa.ts";

test.use({ locale: "en-US" });

/**
 * Runs before any page script: when the parser has built the document (readyState
 * "interactive", before module scripts run), keeps every element of #root with its markup.
 */
function recordServerElements() {
  document.addEventListener("readystatechange", () => {
    if (document.readyState !== "interactive") return;
    const root = document.getElementById("root");
    const elements = root ? [...root.querySelectorAll("*")] : [];
    Object.assign(globalThis, { __ssrElements: elements.map((e) => [e, e.outerHTML]) });
  });
}

/** Console errors, page errors and script URLs of a page, from before it loads. */
function watch(page: Page) {
  const errors: string[] = [];
  const scripts: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
  return { errors, scripts };
}

/** Server-rendered elements that are no longer in the document (the start of each). */
async function replacedServerElements(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const kept = (globalThis as unknown as { __ssrElements?: [Element, string][] })
      .__ssrElements;
    if (!kept?.length) throw new Error("the server-rendered elements were not recorded");
    return kept.filter(([e]) => !e.isConnected).map(([, html]) => html.slice(0, 120));
  });
}

/** Scripts of the share entry only: never the app entry. */
function expectShareEntryOnly(scripts: string[]) {
  expect(scripts.some((s) => /^\/assets\/share-[A-Z0-9]+\.js$/.test(s)), scripts.join()).toBe(
    true,
  );
  expect(scripts.filter((s) => /^\/assets\/main-/.test(s))).toEqual([]);
}

test("an open paste hydrates in place, and copy, theme and language work", async ({ browser, request, adminToken }) => {
  const content = "# Hydrated\n\nSome *text* to copy.";
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content,
    slug: uniqueSlug("hyd"),
  });
  await asVisitor(browser, async ({ context, page }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.addInitScript(recordServerElements);
    const seen = watch(page);
    const share = new PastePage(page);
    await share.goto(paste.slug);
    // The share link section renders only in the browser: hydration and effects have run.
    await expect(page.getByRole("heading", { level: 2, name: "Share", exact: true })).toBeVisible();
    expect(await replacedServerElements(page)).toEqual([]);
    await expect(share.content.getByRole("heading", { name: "Hydrated" })).toBeVisible();

    // Copy: the button's handler is attached and writes the share's text.
    const copy = page.getByRole("button", { name: "Copy content" });
    await copy.click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(content);

    // Theme: auto → light → dark.
    const nav = new TopNav(page);
    await nav.themeToggle.click();
    await expect(page.locator("html")).toHaveAttribute("data-theme-mode", "light");
    await nav.themeToggle.click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");

    // Language: the zh-CN texts load on demand and every text follows.
    await nav.chooseLanguage("简体中文");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: "文本分享" })).toBeVisible();
    await expect(nav.link("首页")).toBeVisible();

    expectShareEntryOnly(seen.scripts);
    expect(seen.errors).toEqual([]);
  });
});

test("a password-protected paste hydrates its form in place and unlocks", async ({ browser, request, adminToken }) => {
  const password = "hydrate me";
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "Behind the password.",
    slug: uniqueSlug("hydpw"),
    password,
  });
  await asVisitor(browser, async ({ page }) => {
    await page.addInitScript(recordServerElements);
    const seen = watch(page);
    const share = new PastePage(page);
    await share.goto(paste.slug);
    // The form is disabled until hydration has attached its handlers.
    await expect(share.passwordInput).toBeEnabled();
    await expect(page.getByRole("heading", { level: 2, name: "Share", exact: true })).toBeVisible();
    expect(await replacedServerElements(page)).toEqual([]);

    await share.unlock("wrong");
    await expect(share.passwordError).toBeVisible();
    await share.unlock(password);
    await expect(share.content).toContainText("Behind the password.");
    expectShareEntryOnly(seen.scripts);
    // The wrong password's reply is the only console line the browser may add.
    const refused = /^Failed to load resource: the server responded with a status of 401/;
    expect(seen.errors.filter((e) => !refused.test(e))).toEqual([]);
  });
});

test("a file share hydrates in place and shows its preview", async ({ browser, request, adminToken }) => {
  const name = `${uniqueSlug("hyd")}.txt`;
  const res = await request.put(`/api/upload-direct/${encodeURIComponent(name)}`, {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: Buffer.from("plain words in a file\n"),
  });
  expect(res.status(), await res.text()).toBe(201);
  const { slug } = (await res.json()).data as { slug: string };

  await asVisitor(browser, async ({ page }) => {
    await page.addInitScript(recordServerElements);
    const seen = watch(page);
    // The page opens the share from an effect, so after hydration: hold that request until
    // the server's elements are checked, since the opened share replaces the spinner.
    let release = () => {};
    const held = new Promise<void>((r) => release = r);
    const opened = new Promise<void>((resolve) => {
      page.route(`**/api/public/files/${slug}`, async (route) => {
        resolve();
        await held;
        await route.continue();
      });
    });
    await page.goto(`/file/${slug}`);
    await opened;
    expect(await replacedServerElements(page)).toEqual([]);
    release();
    await expect(page.getByLabel(`Contents of ${name}`)).toContainText("plain words in a file");
    await expect(page.locator(".file-head-actions").getByRole("link", { name: "Download" }))
      .toBeVisible();
    expectShareEntryOnly(seen.scripts);
    expect(seen.errors).toEqual([]);
  });
});

test("the owner renames a view-limited paste: the page moves to the new link in place and counts no view", async ({ browser, request, adminToken }) => {
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "Counted carefully.",
    slug: uniqueSlug("hydmv"),
    max_views: 5,
  });
  const renamed = uniqueSlug("hydmv2");
  const context = await newContext(browser, { adminToken });
  try {
    const page = await context.newPage();
    const seen = watch(page);
    const share = new PastePage(page);
    await share.goto(paste.slug);
    await expect(share.content).toContainText("Counted carefully.");
    // A marker on the window: it survives only if no document is loaded after this one.
    await page.evaluate(() => Object.assign(globalThis, { __samePage: true }));

    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Link suffix").fill(renamed);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Share saved")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/paste/${renamed}$`));
    await expect(share.content).toContainText("Counted carefully.");
    expect(await page.evaluate(() => "__samePage" in globalThis)).toBe(true);
    // The content came with the navigation, and the owner's own open is not counted.
    const { paste: after } = await readPasteAsManager(request, adminToken, paste.id);
    expect(after?.views).toBe(0);

    // Offline, the top bar says so (the share entry carries the badge too).
    const pwa = new PwaShell(page);
    await context.setOffline(true);
    await expect(pwa.offlineBadge).toBeVisible();
    await context.setOffline(false);
    await expect(pwa.offlineBadge).toBeHidden();
    expect(seen.errors).toEqual([]);
  } finally {
    await context.close();
  }
});
