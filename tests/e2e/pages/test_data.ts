/**
 * Test data made through the API (for what a spec does not test through the UI), fresh
 * visitor contexts, and a seeded admin login. Everything a spec creates gets a unique slug or
 * name, so specs never depend on each other or on the order they run in.
 */
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, sharedServerUrl } from "../fixtures.ts";
import type { PasteView } from "../../../shared/schemas/pastes.ts";
import type { CreatePasteInput } from "../../../client/features/pastes/pastes_api.ts";
import { adminStorageState } from "./admin_login.ts";
import { LoginPage } from "./login_page.ts";

export type { PasteView };

/** A slug (or name) no other test uses: `prefix-<time><random>`, at most 50 characters. */
export function uniqueSlug(prefix: string): string {
  const rand = crypto.randomUUID().replaceAll("-", "").slice(0, 10);
  return `${prefix}-${Date.now().toString(36)}${rand}`.slice(0, 50);
}

/** What `POST /api/paste` takes: the same fields as the app's editor sends. */
export type { CreatePasteInput as PasteInput } from "../../../client/features/pastes/pastes_api.ts";

/** Creates a paste with `POST /api/paste` as `authorization` (e.g. "Bearer …"); expects 201. */
export async function createPaste(
  request: APIRequestContext,
  authorization: string,
  input: CreatePasteInput,
): Promise<PasteView> {
  const res = await request.post("/api/paste", { headers: { authorization }, data: input });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(201);
  return body.data as PasteView;
}

/** Reads a paste as its manager (`GET /api/pastes/{id}`), which never counts a view. */
export async function readPasteAsManager(
  request: APIRequestContext,
  adminToken: string,
  id: string,
): Promise<{ status: number; paste: PasteView | null }> {
  const res = await request.get(`/api/pastes/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const body = await res.json();
  return { status: res.status(), paste: res.ok() ? body.data as PasteView : null };
}

/** The page data the server embedded in a rendered document (`#__cubby_data`). */
export function embeddedPageData(html: string): Record<string, unknown> {
  const m = html.match(/<script id="__cubby_data" type="application\/json">([\s\S]*?)<\/script>/);
  if (!m) throw new Error("no #__cubby_data in the document");
  return JSON.parse(m[1]);
}

/** The server-rendered markup inside `<div id="root">`, without the embedded JSON data. */
export function serverRenderedRoot(html: string): string {
  const start = html.indexOf('<div id="root"');
  const end = html.indexOf('<script id="__cubby_data"');
  if (start < 0 || end < start) throw new Error("no #root in the document");
  return html.slice(start, end);
}

export type ContextOptions = {
  /** The server to open, when not the shared one (an isolated server's URL). */
  baseURL?: string;
  /** Seed the admin login (`cubby.auth` in localStorage) with this session token. */
  adminToken?: string;
  /** The user name the seeded login shows (default "admin"). */
  adminName?: string;
  acceptDownloads?: boolean;
  locale?: string;
  colorScheme?: "light" | "dark";
  viewport?: { width: number; height: number };
  /** The browser's time zone (IANA), e.g. "Asia/Shanghai". */
  timezoneId?: string;
};

/** A file `name` of `size` random bytes in a new temporary folder `dir`; remove `dir` when done. */
export async function randomFile(prefix: string, name: string, size: number) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const path = join(dir, name);
  const bytes = randomBytes(size);
  await writeFile(path, bytes);
  return { dir, path, bytes };
}

/**
 * A new browser context on the shared server: nothing shared with the test's own `page`
 * (cookies, storage), English by default, optionally logged in as the admin.
 */
export async function newContext(browser: Browser, opts: ContextOptions = {}): Promise<
  BrowserContext
> {
  const baseURL = opts.baseURL ?? sharedServerUrl();
  return await browser.newContext({
    baseURL,
    acceptDownloads: opts.acceptDownloads,
    locale: opts.locale ?? "en-US",
    colorScheme: opts.colorScheme,
    viewport: opts.viewport,
    timezoneId: opts.timezoneId,
    storageState: opts.adminToken
      ? adminStorageState(baseURL, opts.adminToken, opts.adminName)
      : undefined,
  });
}

/** A page in a fresh context logged in as the admin with `token`; close the context when done. */
export async function newAdminPage(
  browser: Browser,
  token: string,
  opts: Omit<ContextOptions, "adminToken"> = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, { ...opts, adminToken: token });
  return { context, page: await context.newPage() };
}

/** A page in a fresh visitor context (not logged in); close the context when done. */
export async function newVisitorPage(
  browser: Browser,
  opts: Omit<ContextOptions, "adminToken"> = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, opts);
  return { context, page: await context.newPage() };
}

/** Runs `fn` on the page `opening` resolves to, then closes that page's context. */
async function closingAfter<T>(
  opening: Promise<{ context: BrowserContext; page: Page }>,
  fn: (opened: { context: BrowserContext; page: Page }) => Promise<T>,
): Promise<T> {
  const opened = await opening;
  try {
    return await fn(opened);
  } finally {
    await opened.context.close();
  }
}

/** Runs `fn` on a new admin page (as `newAdminPage` opens one), closing it after. */
export async function asAdmin<T>(
  browser: Browser,
  token: string,
  fn: (admin: { context: BrowserContext; page: Page }) => Promise<T>,
  opts: Omit<ContextOptions, "adminToken"> = {},
): Promise<T> {
  return await closingAfter(newAdminPage(browser, token, opts), fn);
}

/** Runs `fn` on a new visitor's page (as `newVisitorPage` opens one), closing it after. */
export async function asVisitor<T>(
  browser: Browser,
  fn: (visitor: { context: BrowserContext; page: Page }) => Promise<T>,
  opts: Omit<ContextOptions, "adminToken"> = {},
): Promise<T> {
  return await closingAfter(newVisitorPage(browser, opts), fn);
}

/** Runs `fn` on a new page logged in through the login form with API key `key`, closing it after. */
export async function asKeyHolder<T>(
  browser: Browser,
  key: string,
  fn: (holder: { context: BrowserContext; page: Page }) => Promise<T>,
): Promise<T> {
  return await asVisitor(browser, async (holder) => {
    const login = new LoginPage(holder.page);
    await login.goto();
    await login.loginWithApiKey(key);
    return await fn(holder);
  });
}

/** Calls the API of the server at `server.url` as the admin; expects a 2xx and returns `data`. */
export async function callAdminApi(
  server: { url: string },
  token: string,
  path: string,
  init: RequestInit = {},
) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  if (typeof init.body === "string") headers.set("content-type", "application/json");
  const res = await fetch(`${server.url}/api${path}`, { ...init, headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Clicks `link` and returns the bytes of the download it starts. */
export async function downloadBytes(link: Locator): Promise<Buffer> {
  const [download] = await Promise.all([link.page().waitForEvent("download"), link.click()]);
  return await readFile(await download.path());
}

/** Opens a share link in a fresh visitor context and returns the downloaded bytes. */
export async function downloadAsVisitor(browser: Browser, url: string) {
  const visitor = await newVisitorPage(browser);
  try {
    await visitor.page.goto(url);
    return await downloadBytes(
      visitor.page.getByRole("link", { name: "Download", exact: true }).first(),
    );
  } finally {
    await visitor.context.close();
  }
}
