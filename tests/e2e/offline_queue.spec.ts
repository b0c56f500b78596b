/**
 * The offline store and queue (issue 9; docs/PRODUCT.md §3.12, §4.5 and §7.9: tables, state,
 * replay) and the share target: a paste created offline is queued in IndexedDB and shown as
 * queued, and back online it exists exactly once even when the first replay's answer is lost;
 * sharing to the share_target action opens the editor with the text and puts files in the
 * upload queue.
 */
import { expect, test } from "./fixtures.ts";
import {
  createPaste,
  newAdminPage,
  newVisitorPage,
  readPasteAsManager,
  uniqueSlug,
} from "./pages/test_data.ts";
import { PastePage } from "./pages/paste_page.ts";
import { ExplorerPage } from "./pages/explorer_page.ts";
import { AdminLayout } from "./pages/admin_layout.ts";
import { freshMount, putFile, removeTemporaryRoots } from "./pages/mount_data.ts";
import { HomePage } from "./pages/home_page.ts";
import { PwaShell } from "./pages/pwa.ts";
import { OfflineQueue } from "./pages/offline_queue.ts";

test.afterAll(removeTemporaryRoots);

type QueueRow = {
  endpoint: string;
  method: string;
  data: { content: string; remark?: string };
  authType: string;
  authToken: string | null;
  status: string;
  type: string;
  timestamp: number;
  idempotencyKey: string;
};

test("a paste created offline is queued and, back online, created exactly once even when the first replay's answer is lost", async ({ browser, request, adminToken }) => {
  const { context, page } = await newAdminPage(browser, adminToken);
  const home = new HomePage(page);
  const queue = new OfflineQueue(page);
  await home.goto();
  await new PwaShell(page).waitForControl();
  await home.heading.waitFor();

  const marker = uniqueSlug("offline");
  await context.setOffline(true);
  await home.editor.click();
  await page.keyboard.type(`written offline ${marker}`);
  await home.remark.fill(marker);
  await home.createButton.click();

  await expect(queue.queuedPaste).toBeVisible();
  await expect(queue.indicator).toContainText("1 change waiting to sync");
  const rows = await queue.table<QueueRow>("offlineQueue");
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    method: "POST",
    status: "pending",
    type: "createPaste",
    authType: "admin",
    authToken: adminToken,
  });
  expect(new URL(rows[0].endpoint, "http://x").pathname).toBe("/api/paste");
  expect(rows[0].data.content).toBe(`written offline ${marker}`);
  expect(rows[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

  // The first replay reaches the server, which creates the paste, but its answer never
  // reaches the browser; the next replay must get the same paste back, not a second one.
  const seen: { status: number; replayed: string | undefined }[] = [];
  await context.route("**/api/paste", async (route) => {
    if (route.request().method() !== "POST") return await route.continue();
    const res = await route.fetch();
    seen.push({ status: res.status(), replayed: res.headers()["idempotent-replayed"] });
    if (seen.length === 1) await route.abort("connectionreset");
    else await route.fulfill({ response: res });
  });
  await context.setOffline(false);

  await expect(queue.indicator).toHaveCount(0, { timeout: 20_000 });
  await expect(home.result).toBeVisible();
  await expect(page.getByText("1 offline change synced")).toBeVisible();
  expect(seen.length).toBeGreaterThanOrEqual(2);
  expect(seen[0]).toEqual({ status: 201, replayed: undefined });
  expect(seen.at(-1)).toEqual({ status: 201, replayed: "true" });
  expect(await queue.table("offlineQueue")).toEqual([]);

  const list = await request.get(`/api/pastes?search=${marker}&limit=50`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const items = (await list.json()).data.items as { remark: string }[];
  expect(items.filter((i) => i.remark === marker)).toHaveLength(1);
  await context.close();
});

test("sharing to the share_target action opens the editor with the text and queues shared files", async ({ browser, adminToken }) => {
  const { context, page } = await newAdminPage(browser, adminToken);
  const home = new HomePage(page);
  await home.goto();
  await new PwaShell(page).waitForControl();

  // What the OS does: a multipart POST navigation to the manifest's share_target action.
  const manifest = await (await page.request.get("/manifest.webmanifest")).json();
  const action = manifest.share_target.action as string;
  const marker = uniqueSlug("shared");
  const submitShare = (fields: Record<string, string>, files: { name: string; body: string }[]) =>
    page.evaluate(({ action, fields, files }) => {
      const form = document.createElement("form");
      form.method = "POST";
      form.enctype = "multipart/form-data";
      form.action = action;
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement("input");
        input.name = name;
        input.value = value;
        form.append(input);
      }
      const picker = document.createElement("input");
      picker.type = "file";
      picker.name = "files";
      picker.multiple = true;
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([f.body], f.name, { type: "text/plain" }));
      picker.files = dt.files;
      form.append(picker);
      document.body.append(form);
      form.submit();
    }, { action, fields, files });

  await submitShare({ title: "", text: `shared text ${marker}`, url: "https://example.com/x" }, []);
  await page.waitForURL((u) => u.pathname === "/");
  await expect(home.editor).toContainText(`shared text ${marker}`);
  await expect(home.editor).toContainText("https://example.com/x");
  await expect(page).toHaveURL((u) => u.search === "");

  await submitShare({ title: "files", text: "", url: "" }, [
    { name: `${marker}-a.txt`, body: "first" },
    { name: `${marker}-b.txt`, body: "second" },
  ]);
  await page.waitForURL((u) => u.pathname === "/upload");
  await expect(page.getByText(`${marker}-a.txt`)).toBeVisible();
  await expect(page.getByText(`${marker}-b.txt`)).toBeVisible();
  await context.close();
});

test("an open share opened online is readable offline from IndexedDB; protected and view-limited ones are never stored", async ({ browser, request, adminToken }) => {
  const auth = `Bearer ${adminToken}`;
  const marker = uniqueSlug("copy");
  const open = await createPaste(request, auth, { content: `open ${marker}` });
  const limited = await createPaste(request, auth, { content: `limited ${marker}`, max_views: 3 });
  const locked = await createPaste(request, auth, {
    content: `locked ${marker}`,
    password: "pw-123456",
  });
  const { context, page } = await newVisitorPage(browser);
  const view = new PastePage(page);
  const queue = new OfflineQueue(page);

  await view.goto(open.slug);
  await expect(view.content).toContainText(`open ${marker}`);
  // The copy is written after hydration, once the offline store has loaded: wait for it before
  // leaving the page (the server-rendered content is visible before that).
  await expect.poll(async () => (await queue.table<{ slug: string }>("pastes")).map((r) => r.slug))
    .toEqual([open.slug]);
  await view.goto(limited.slug);
  await expect(view.content).toContainText(`limited ${marker}`);
  await view.goto(locked.slug);
  await view.unlock("pw-123456");
  await expect(view.content).toContainText(`locked ${marker}`);

  await expect.poll(async () => (await queue.table<{ slug: string }>("pastes")).map((r) => r.slug))
    .toEqual([open.slug]);

  // Offline, with the worker's share cache gone, the open share comes from IndexedDB only. The
  // share pages load their own small entry, so the app's chunks come from the worker's precache:
  // wait until it controls the page, as an app opened once online would be.
  await new PwaShell(page).openControlled();
  await page.evaluate(() => caches.delete("cubby-shares"));
  await context.setOffline(true);
  const navigateInApp = (path: string) =>
    page.evaluate((to) => {
      history.pushState({}, "", to);
      dispatchEvent(new PopStateEvent("popstate"));
    }, path);
  await navigateInApp(`/paste/${open.slug}`);
  await expect(view.content).toContainText(`open ${marker}`);
  await expect(page.getByTestId("offline-copy")).toBeVisible();

  await navigateInApp(`/paste/${limited.slug}`);
  const failed = page.getByRole("heading", { name: "Could not open this share" });
  await expect(failed).toBeVisible();
  await expect(page.getByText(`limited ${marker}`)).toHaveCount(0);
  await navigateInApp("/");
  await navigateInApp(`/paste/${locked.slug}`);
  await expect(failed).toBeVisible();
  await expect(page.getByText(`locked ${marker}`)).toHaveCount(0);
  await context.setOffline(false);

  // The view-limited share used exactly one view: offline attempts never reached it.
  const limitedNow = await readPasteAsManager(request, adminToken, limited.id);
  expect(limitedNow.paste?.views).toBe(1);
  await context.close();
});

test("explorer folders stay readable offline and the search box keeps a clearable history", async ({ browser, request, adminToken }) => {
  const root = await freshMount(request, adminToken, "offdir");
  await putFile(request, adminToken, root, "kept-offline.txt", "hello");
  const { context, page } = await newAdminPage(browser, adminToken);
  const explorer = new ExplorerPage(page);
  const queue = new OfflineQueue(page);
  await explorer.goto(root);
  await expect(explorer.table.getByText("kept-offline.txt")).toBeVisible();
  await expect.poll(async () =>
    (await queue.table<{ path: string; owner: string }>("directories"))
      .filter((r) => r.path === root).map((r) => r.owner)
  ).toEqual(["admin"]);

  await explorer.searchBox.fill("kept");
  await explorer.searchBox.press("Enter");
  await expect(explorer.searchResults).toBeVisible();
  await expect.poll(async () =>
    (await queue.table<{ query: string }>("searchHistory")).map((r) => r.query)
  ).toContain("kept");
  // With the box empty, recent searches are offered; one click searches again.
  await explorer.searchBox.fill("");
  const recent = page.getByRole("group", { name: "Recent searches" });
  await expect(recent.getByRole("button", { name: "kept", exact: true })).toBeVisible();
  await recent.getByRole("button", { name: "Clear search history" }).click();
  await expect(recent).toHaveCount(0);
  await expect.poll(async () => (await queue.table("searchHistory")).length).toBe(0);

  await explorer.goto(root);
  await expect(explorer.table.getByText("kept-offline.txt")).toBeVisible();
  await context.setOffline(true);
  await explorer.toolbar.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByTestId("offline-copy")).toBeVisible();
  await expect(explorer.table.getByText("kept-offline.txt")).toBeVisible();
  await context.close();
});

test("logging out deletes queued writes that carry credentials", async ({ browser, adminToken }) => {
  const { context, page } = await newAdminPage(browser, adminToken);
  const home = new HomePage(page);
  const queue = new OfflineQueue(page);
  await home.goto();
  // Every replay of the create fails in the network, so the paste stays queued once the page is
  // back online.
  await context.route(
    "**/api/paste",
    (route) =>
      route.request().method() === "POST" ? route.abort("connectionreset") : route.continue(),
  );
  await home.editor.click();
  await page.keyboard.type(`never sent ${uniqueSlug("logout")}`);
  await context.setOffline(true);
  await home.createButton.click();
  await expect(queue.queuedPaste).toBeVisible();
  await context.setOffline(false);
  expect(await queue.table("offlineQueue")).toHaveLength(1);

  await page.goto("/admin/text-management");
  await new AdminLayout(page).logout();
  await expect(page).toHaveURL(/\/admin\/login/);
  await expect.poll(async () => (await queue.table("offlineQueue")).length).toBe(0);
  await context.close();
});
