/**
 * The installable offline app (issue 9; /offline, the service worker, install, update and
 * offline states: docs/PRODUCT.md §2.1, §4.4 and §4.5): manifest and icons, Chrome's installability
 * check, the service worker taking control, offline navigation, the chunk error boundary, shares
 * that must never be readable from a cache, and the update prompt after a redeploy.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import process from "node:process";
import { expect, sharedServerUrl, startServer, test } from "./fixtures.ts";
import {
  asAdmin,
  asVisitor,
  createPaste,
  readPasteAsManager,
  uniqueSlug,
} from "./pages/test_data.ts";
import { pngSize, PwaShell } from "./pages/pwa.ts";
import { PastePage } from "./pages/paste_page.ts";
import { HomePage } from "./pages/home_page.ts";
import { TopNav } from "./pages/top_nav.ts";
import { AdminLayout } from "./pages/admin_layout.ts";
import { denoBinary, findRepoRoot } from "../helpers/server.ts";
import { CHROMIUM_LAUNCH_OPTIONS } from "../helpers/browser.ts";
import { type Browser, chromium } from "@playwright/test";

test("the manifest parses and its icons are real PNGs of the declared sizes", async ({ request }) => {
  const res = await request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/manifest+json; charset=utf-8");
  const manifest = JSON.parse(await res.text());
  expect(manifest).toMatchObject({ start_url: "/", scope: "/", display: "standalone" });
  expect(manifest.name.length).toBeGreaterThan(0);
  expect(manifest.icons.some((i: { purpose: string }) => i.purpose === "maskable")).toBe(true);
  for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    expect(png.headers()["content-type"]).toBe(icon.type);
    const { width, height } = pngSize(new Uint8Array(await png.body()));
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
  }
});

test("Chrome finds no installability errors", async ({ baseURL }) => {
  // Chrome never offers installation in incognito, which every test context is: this test
  // needs a persistent profile of its own.
  const profile = await mkdtemp(join(tmpdir(), "cubby-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    ...CHROMIUM_LAUNCH_OPTIONS,
    baseURL,
    locale: "en-US",
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await new PwaShell(page).openControlled();
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test("after a reload a service worker controls the page and holds the precache", async ({ page }) => {
  const pwa = new PwaShell(page);
  await page.goto("/");
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  const script = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
  expect(script).toMatch(/\/sw\.js$/);
  const cached = await pwa.cachedUrls();
  expect(cached.some((u) => u.includes("/offline"))).toBe(true);
  expect(cached.some((u) => u.includes("/app-shell"))).toBe(true);
  expect(cached.some((u) => /\/assets\/main-[A-Z0-9]+\.js/.test(u))).toBe(true);
});

test("after one online visit, offline reloads show content, never the browser's error page", async ({ browser, request, adminToken }) => {
  const text = `offline readable ${uniqueSlug("t")}`;
  const paste = await createPaste(request, `Bearer ${adminToken}`, { content: text });
  await asAdmin(browser, adminToken, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    await pwa.openControlled();
    const dashboard = page.getByRole("heading", { level: 1, name: "Dashboard" });
    const upload = page.getByRole("heading", { level: 1, name: "Upload files" });
    const sharePage = new PastePage(page);
    // The online visit.
    await page.goto(`/paste/${paste.slug}`);
    await expect(sharePage.content).toContainText(text);
    await page.goto("/upload");
    await expect(upload).toBeVisible();
    await page.goto("/admin/dashboard");
    await expect(dashboard).toBeVisible();

    await context.setOffline(true);
    await page.goto("/");
    await expect(new HomePage(page).heading).toBeVisible();
    await expect(pwa.offlineBadge).toBeVisible();
    await page.goto(`/paste/${paste.slug}`);
    await expect(sharePage.content).toContainText(text);
    await page.goto("/upload");
    await expect(upload).toBeVisible();
    await page.goto("/admin/dashboard");
    await expect(dashboard.or(pwa.offlineHeading)).toBeVisible();
    // A page never visited and not an app route still gets the offline page.
    await page.goto(`/paste/${uniqueSlug("never")}`);
    await expect(pwa.offlineHeading).toBeVisible();
  });
});

test("going offline shows a toast and the badge; an unvisited lazy route offline is recoverable", async ({ browser }) => {
  await asVisitor(browser, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    await pwa.openControlled();
    await expect(new HomePage(page).heading).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByText("You are offline. Visited pages stay available.")).toBeVisible();
    await expect(pwa.offlineBadge).toHaveText("Offline");
    // The admin link leads to the login page, whose chunk was never loaded: the offline page.
    await new TopNav(page).link("Admin").click();
    await expect(pwa.offlineHeading).toBeVisible();
    await expect(new TopNav(page).link("Home")).toBeVisible();
    const retry = page.getByRole("main").getByRole("button", { name: "Retry" });
    await retry.click();
    await expect(pwa.offlineHeading).toBeVisible();

    await context.setOffline(false);
    await expect(pwa.offlineBadge).toBeHidden();
    await retry.click();
    await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  });
});

test("password-protected and view-limited shares read online are not readable offline, views exact", async ({ browser, request, adminToken }) => {
  const auth = `Bearer ${adminToken}`;
  const lockedText = `locked ${uniqueSlug("t")}`;
  const limitedText = `limited ${uniqueSlug("t")}`;
  const locked = await createPaste(request, auth, { content: lockedText, password: "pw-123456" });
  const limited = await createPaste(request, auth, { content: limitedText, max_views: 5 });
  await asVisitor(browser, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    const share = new PastePage(page);
    await pwa.openControlled();
    await share.goto(limited.slug);
    await expect(share.content).toContainText(limitedText);
    await share.goto(locked.slug);
    await share.passwordInput.fill("pw-123456");
    await share.passwordSubmit.click();
    await expect(share.content).toContainText(lockedText);

    const cached = (await pwa.cachedUrls()).join("\n");
    expect(cached).not.toContain(locked.slug);
    expect(cached).not.toContain(limited.slug);

    await context.setOffline(true);
    for (const slug of [limited.slug, locked.slug]) {
      await share.goto(slug);
      await expect(pwa.offlineHeading).toBeVisible();
      await expect(page.getByText(lockedText)).toHaveCount(0);
      await expect(page.getByText(limitedText)).toHaveCount(0);
    }
    await context.setOffline(false);
  });
  expect((await readPasteAsManager(request, adminToken, limited.id)).paste?.views).toBe(1);
  expect((await readPasteAsManager(request, adminToken, locked.id)).paste?.views).toBe(1);
});

test("logging out removes the offline copies of shares read on this device", async ({ browser, request, adminToken }) => {
  const text = `kept until logout ${uniqueSlug("t")}`;
  const paste = await createPaste(request, `Bearer ${adminToken}`, { content: text });
  await asAdmin(browser, adminToken, async ({ context, page }) => {
    const pwa = new PwaShell(page);
    const share = new PastePage(page);
    await pwa.openControlled();
    await share.goto(paste.slug);
    await expect(share.content).toContainText(text);
    await expect.poll(() => pwa.offlineKeys("pastes")).toContain(paste.slug);

    await page.goto("/admin/text-management");
    await new AdminLayout(page).logout();
    await expect(page).toHaveURL(/\/admin\/login/);
    await expect.poll(() => pwa.offlineKeys("pastes")).toEqual([]);
    expect(await pwa.offlineKeys("files")).toEqual([]);

    await context.setOffline(true);
    await share.goto(paste.slug);
    await expect(pwa.offlineHeading).toBeVisible();
    await expect(page.getByText(text)).toHaveCount(0);
  });
});

/** Starts a server that serves the client from `dist` and opens a page on it, in English. */
async function startOnDist(browser: Browser, dist: string) {
  const server = await startServer({ CUBBY_DIST_DIR: dist });
  const context = await browser.newContext({ baseURL: server.url, locale: "en-US" });
  const page = await context.newPage();
  return { server, context, page, pwa: new PwaShell(page) };
}

test("a new build deployed while a tab is open shows the update card; accepting reloads onto it", async ({ browser }) => {
  test.setTimeout(120_000);
  const root = findRepoRoot();
  const dist = await mkdtemp(join(tmpdir(), "cubby-dist-"));
  await cp(join(root, "dist"), dist, { recursive: true });
  const { server, context, page, pwa } = await startOnDist(browser, dist);
  try {
    await pwa.openControlled();
    const before = await pwa.workerBuild();

    // The redeploy: a fresh build into the served directory, then a server restart.
    await promisify(execFile)(denoBinary(), ["run", "-A", "scripts/build.ts"], {
      cwd: root,
      env: { ...process.env, CUBBY_DIST_DIR: dist },
    });
    const built = JSON.parse(await readFile(join(dist, "manifest.json"), "utf8")).build_id;
    expect(built).not.toBe(before);
    await server.restart();

    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect(pwa.updateCard).toBeVisible();
    await Promise.all([page.waitForEvent("load"), pwa.updateButton.click()]);
    await expect.poll(() => pwa.workerBuild()).toBe(built);
    await expect(pwa.updateCard).toBeHidden();
  } finally {
    await context.close();
    await server.stop();
    await rm(dist, { recursive: true, force: true });
  }
});

test("the install card follows beforeinstallprompt and stays away 7 days after 'later'", async ({ page }) => {
  // Chrome fires beforeinstallprompt only for a real, user-engaged profile; the test sends the
  // event itself, shaped like Chrome's, with a prompt whose answer it records.
  const offerInstall = () =>
    page.evaluate(() => {
      const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
        prompt: () => {
          (globalThis as unknown as { prompted: boolean }).prompted = true;
          return Promise.resolve();
        },
        userChoice: Promise.resolve({ outcome: "accepted" }),
      });
      globalThis.dispatchEvent(event);
    });
  const card = page.getByRole("dialog", { name: "Install the app" });
  // The card is checked every 5 s: the test drives the page's clock instead of waiting.
  await page.clock.install();
  await page.goto("/");
  await offerInstall();
  await expect(card).toBeHidden();
  await page.clock.runFor(5_000);
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Later" }).click();
  await expect(card).toBeHidden();
  const dismissedAt = await page.evaluate(() => localStorage.getItem("pwaInstallDismissedAt"));
  expect(Number(dismissedAt)).toBeGreaterThan(0);

  // Offered again within the 7 days: the checks keep it hidden.
  await offerInstall();
  await page.clock.runFor(5_000);
  await expect(card).toBeHidden();

  // Eight days later it shows again, and "Install" opens the browser's prompt.
  await page.clock.fastForward(8 * 24 * 3600_000);
  await page.clock.runFor(5_000);
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Install" }).click();
  await expect(card).toBeHidden();
  expect(await page.evaluate(() => (globalThis as unknown as { prompted: boolean }).prompted))
    .toBe(true);
});

test("on iOS the install card explains Add to Home Screen", async ({ browser }) => {
  const ios = await browser.newContext({
    baseURL: sharedServerUrl(),
    locale: "en-US",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 " +
      "(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
  });
  const page = await ios.newPage();
  try {
    await page.clock.install();
    await page.goto("/");
    await page.clock.runFor(5_000);
    const card = page.getByRole("dialog", { name: "Install the app" });
    await expect(card).toContainText("Add to Home Screen");
    await card.getByRole("button", { name: "Got it" }).click();
    await expect(card).toBeHidden();
    await page.clock.runFor(5_000);
    await expect(card).toBeHidden();
  } finally {
    await ios.close();
  }
});

test("after a redeploy removed the old lazy chunks, an open tab shows the recoverable error", async ({ browser }) => {
  test.setTimeout(90_000);
  const root = findRepoRoot();
  const dist = await mkdtemp(join(tmpdir(), "cubby-dist-"));
  await cp(join(root, "dist"), dist, { recursive: true });
  const built = JSON.parse(await readFile(join(dist, "manifest.json"), "utf8"));
  const precached = new Set((built.precache as { url: string }[]).map((e) => e.url));
  const lazyChunks = (built.files as string[]).filter((f) =>
    f.endsWith(".js") && !precached.has(f)
  );
  expect(lazyChunks.length).toBeGreaterThan(0);
  const { server, context, page, pwa } = await startOnDist(browser, dist);
  try {
    await pwa.openControlled();
    await expect(new HomePage(page).heading).toBeVisible();
    // The redeploy wiped the chunks this tab would load next (the login page's among them).
    const moved = join(dist, "removed");
    await cp(join(dist, "assets"), moved, { recursive: true });
    for (const f of lazyChunks) {
      const cachedHere = await page.evaluate(async (u) => !!(await caches.match(u)), f);
      if (!cachedHere) await rm(join(dist, f));
    }
    await new TopNav(page).link("Admin").click();
    await expect(pwa.pageError).toContainText("could not be loaded");
    await expect(new TopNav(page).link("Home")).toBeVisible();

    // Once the files are back (the new version serves them), retry recovers in place.
    await cp(moved, join(dist, "assets"), { recursive: true });
    await pwa.retryButton.click();
    await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
    await rm(dist, { recursive: true, force: true });
  }
});
