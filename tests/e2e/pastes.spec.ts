/**
 * Text shares end to end (docs/PRODUCT.md §12): create on Home and open the link as a stranger,
 * password-protected shares, view-limited shares whose server rendering must not use up a
 * view, and text management (list, search, delete).
 */
import { ADMIN, expect, test } from "./fixtures.ts";
import { HomePage } from "./pages/home_page.ts";
import { LoginPage } from "./pages/login_page.ts";
import { PastePage } from "./pages/paste_page.ts";
import { TextManagementPage } from "./pages/text_management_page.ts";
import {
  asVisitor,
  createPaste,
  embeddedPageData,
  newContext,
  readPasteAsManager,
  serverRenderedRoot,
  uniqueSlug,
} from "./pages/test_data.ts";

test.use({ locale: "en-US" });

const MARKDOWN = [
  "# Hello",
  "",
  "- apples",
  "- pears",
  "",
  "```js",
  "const answer = 42;",
  "```",
].join("\n");

test("a Markdown share made on Home renders for a visitor who is not logged in", async ({ page, browser }) => {
  const home = new HomePage(page);
  await home.goto();

  // Logged out, Home explains that creating needs a login and links to it.
  await expect(home.loginNotice).toContainText("Creating a share needs the admin");
  await expect(home.createButton).toBeDisabled();
  await home.loginLink.click();

  const login = new LoginPage(page);
  await expect(login.heading).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login\?redirect=%2F$/);
  await login.loginWithPassword(ADMIN.username, ADMIN.password);

  // Back on Home, now allowed to create.
  await expect(home.heading).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(home.loginNotice).toBeHidden();
  await expect(home.createButton).toBeEnabled();

  await home.typeMarkdown(MARKDOWN);
  expect(await home.editorText()).toBe(MARKDOWN);
  // The live preview already shows the heading.
  await expect(home.preview.getByRole("heading", { name: "Hello" })).toBeVisible();

  const slug = uniqueSlug("md");
  await home.slug.fill(slug);
  const url = await home.create();

  await expect(home.result).toBeFocused();
  expect(url).toBe(new URL(`/paste/${slug}`, page.url()).href);
  await expect(home.qrCode).toBeVisible();
  await expect(home.qrCode).toHaveAttribute("alt", `QR code for ${url}`);
  await expect(home.qrCode).toHaveAttribute("src", /^data:image\/png;base64,/);
  // The editor is emptied for the next share.
  await expect.poll(() => home.editorText()).toBe("");

  // A stranger opens the link.
  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    const res = await share.goto(url);
    expect(res?.status()).toBe(200);
    await expect(share.heading).toBeVisible();
    await expect(share.content.getByRole("heading", { level: 1, name: "Hello" })).toBeVisible();
    const items = share.content.getByRole("listitem");
    await expect(items).toHaveText(["apples", "pears"]);
    const code = share.content.locator("pre code");
    await expect(code).toHaveText("const answer = 42;");
    await expect(code).toHaveClass(/\bhljs\b/);
    await expect(code).toHaveClass(/\blanguage-js\b/);
    // Highlighted: the keyword and the number are marked up as tokens.
    await expect(code.locator(".hljs-keyword")).toHaveText("const");
    await expect(code.locator(".hljs-number")).toHaveText("42");
    // Not logged in: no manage buttons.
    await expect(page.getByRole("group", { name: "Manage this share" })).toHaveCount(0);
  });
});

test("a password-protected share asks for the password and refuses a wrong one", async ({ browser, request, adminToken }) => {
  const slug = uniqueSlug("pw");
  const password = "correct horse 42";

  // Created through the UI by a logged-in admin (seeded login).
  const admin = await newContext(browser, { adminToken });
  try {
    const page = await admin.newPage();
    const home = new HomePage(page);
    await home.goto();
    await home.typeMarkdown("## Secret plans\n\nMeet at noon.");
    await home.slug.fill(slug);
    await home.password.fill(password);
    await home.remark.fill("for the night shift");
    await home.create();
    await expect(home.result).toContainText("Protected by a password");
  } finally {
    await admin.close();
  }

  // The server-rendered page holds no content, only the prompt.
  const ssr = await request.get(`/paste/${slug}`);
  expect(ssr.status()).toBe(200);
  const html = await ssr.text();
  expect(html).not.toContain("Meet at noon");
  expect(embeddedPageData(html)).toMatchObject({
    page: { requires: "password", paste: { slug, content: null, has_password: true } },
  });

  await asVisitor(browser, async ({ context, page }) => {
    const share = new PastePage(page);
    await share.goto(slug);
    await expect(share.passwordHeading).toBeVisible();
    await expect(share.content).toHaveCount(0);
    await expect(page.getByText("Meet at noon")).toHaveCount(0);
    // The remark, too, waits for the password.
    await expect(page.getByText("for the night shift")).toHaveCount(0);

    await share.unlock("not the password");
    await expect(share.passwordError).toBeVisible();
    await expect(share.passwordInput).toHaveAttribute("aria-invalid", "true");
    await expect(share.passwordInput).toHaveAccessibleDescription("Wrong password");
    await expect(share.content).toHaveCount(0);

    await share.unlock(password);
    await expect(share.content.getByRole("heading", { name: "Secret plans" })).toBeVisible();
    await expect(share.content).toContainText("Meet at noon.");
    await expect(share.passwordHeading).toBeHidden();
    await expect(page.getByText("for the night shift")).toBeVisible();
    // "Raw text" carries the unlock's view token, never the password (history, proxy logs).
    const raw = share.rawLink;
    await expect(raw).toHaveAttribute("href", /^\/api\/raw\/[^?]+\?t=/);
    expect(await raw.getAttribute("href")).not.toContain(encodeURIComponent(password));
    const [tab] = await Promise.all([context.waitForEvent("page"), raw.click()]);
    await expect(tab.locator("body")).toContainText("Meet at noon.");
    expect(tab.url()).not.toContain("password");
  });
});

test("a one-view share: server rendering does not use the view, the first visit does", async ({ browser, request, adminToken }) => {
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "# Burn after reading\n\nOnly once.",
    slug: uniqueSlug("once"),
    max_views: 1,
  });

  // What a link unfurler sees: metadata only, twice over, and the view is still there.
  for (let i = 0; i < 2; i++) {
    const ssr = await request.get(`/paste/${paste.slug}`);
    expect(ssr.status()).toBe(200);
    const html = await ssr.text();
    expect(serverRenderedRoot(html)).not.toContain("Only once");
    expect(embeddedPageData(html)).toMatchObject({
      page: { requires: "view", paste: { slug: paste.slug, content: null, views: 0 } },
    });
  }
  expect((await readPasteAsManager(request, adminToken, paste.id)).paste).toMatchObject({
    views: 0,
    max_views: 1,
  });

  // The first visit shows the content and uses the view.
  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    await share.goto(paste.slug);
    await expect(share.content.getByRole("heading", { name: "Burn after reading" })).toBeVisible();
    await expect(share.content).toContainText("Only once.");
  });
  expect((await readPasteAsManager(request, adminToken, paste.id)).paste).toMatchObject({
    views: 1,
  });

  // The next visit finds it used up.
  await asVisitor(browser, async ({ page }) => {
    const share = new PastePage(page);
    const res = await share.goto(paste.slug);
    expect(res?.status()).toBe(410);
    await expect(share.expiredHeading).toBeVisible();
    await expect(
      page.getByText("This share has passed its expiry time or reached its view limit."),
    ).toBeVisible();
    await expect(share.content).toHaveCount(0);
    await expect(page.getByText("Only once")).toHaveCount(0);
  });
});

test("text management lists, finds and deletes a share", async ({ browser, request, adminToken }) => {
  const marker = uniqueSlug("needle").replaceAll("-", "");
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "A note for the text management test.",
    slug: uniqueSlug("tm"),
    remark: `remark ${marker}`,
  });
  // Another share, so that the search has something to leave out.
  const other = await createPaste(request, `Bearer ${adminToken}`, {
    content: "Something unrelated.",
    slug: uniqueSlug("tm-other"),
  });

  const context = await newContext(browser, { adminToken });
  try {
    const page = await context.newPage();
    const texts = new TextManagementPage(page);
    await texts.goto();
    await texts.showPerPage(100);
    const row = texts.row(paste.slug);
    await expect(row).toBeVisible();
    await expect(row).toContainText(`remark ${marker}`);
    await expect(row).toContainText("A note for the text management test.");
    await expect(row).toContainText("Active");
    await expect(texts.row(other.slug)).toBeVisible();

    await texts.searchFor(marker);
    await expect(texts.rows()).toHaveCount(1);
    await expect(row).toBeVisible();
    await expect(texts.row(other.slug)).toHaveCount(0);

    await texts.deleteShare(paste.slug);
    await expect(texts.confirmDialog).toBeHidden();
    await expect(page.getByRole("status").getByText("Deleted 1")).toBeVisible();
    await expect(texts.noMatches).toBeVisible();
    await expect(texts.row(paste.slug)).toHaveCount(0);
  } finally {
    await context.close();
  }

  // Gone for good: the manager API and the share page both say so.
  expect((await readPasteAsManager(request, adminToken, paste.id)).status).toBe(404);
  expect((await request.get(`/paste/${paste.slug}`)).status()).toBe(404);
  expect((await readPasteAsManager(request, adminToken, other.id)).status).toBe(200);
});

test("text management search finds a share by its remark, as its placeholder says", async ({ browser, request, adminToken }) => {
  const marker = uniqueSlug("body").replaceAll("-", "");
  const paste = await createPaste(request, `Bearer ${adminToken}`, {
    content: "The body does not mention it.",
    remark: `Remark ${marker}`,
    slug: uniqueSlug("tm-body"),
  });

  const context = await newContext(browser, { adminToken });
  try {
    const texts = new TextManagementPage(await context.newPage());
    await texts.goto();
    await expect(texts.search).toHaveAttribute("placeholder", "Link suffix or remark");
    await texts.searchFor(marker);
    await expect(texts.rows()).toHaveCount(1, { timeout: 5_000 });
    await expect(texts.row(paste.slug)).toBeVisible();
  } finally {
    await context.close();
  }
});
