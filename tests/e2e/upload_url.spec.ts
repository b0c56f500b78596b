/**
 * URL upload on /upload (docs/PRODUCT.md §7.7, §4.3 and §13.9: stages and the request-forgery
 * guard). A tiny origin server on 127.0.0.1 serves the files. Cubby refuses loopback URLs unless it
 * runs with CUBBY_ALLOW_LOOPBACK_FETCH=1, so:
 * - on the shared server, the spec first asks `url/info` itself: when it refuses, the screen
 *   must show the refusal; when it allows (a suite run with the flag), the full flow runs;
 * - a server of this spec's own, started with the flag, always runs the full flow: fetch info,
 *   upload through the guarded proxy (a presigned upload), upload straight from a CORS-enabled
 *   origin (multipart, above a lowered threshold), cancel a slow download, and a visitor
 *   downloads the same bytes.
 */
import type { Browser, BrowserContext, Locator, Request } from "@playwright/test";
import { PageObject } from "./pages/page_object.ts";
import type { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ADMIN,
  expect,
  loginAdmin,
  sharedServerUrl,
  startServer,
  test,
  type TestServer,
} from "./fixtures.ts";
import { downloadBytes, newContext, uniqueSlug } from "./pages/test_data.ts";

test.use({ locale: "en-US" });

const MiB = 1024 * 1024;

type Origin = {
  url: string;
  /** How many slow downloads Cubby broke off. */
  aborted: () => number;
  stop: () => Promise<void>;
};

/**
 * The origin: `/files/<name>` (no CORS), `/cors/<name>` (CORS for any origin) and
 * `/slow/<name>` (10 MB announced, 64 KB every 100 ms); HEAD answers the headers only.
 */
async function startOrigin(files: Record<string, Buffer>): Promise<Origin> {
  let aborted = 0;
  const server: Server = createServer((req, res) => {
    const [, kind, name] = new URL(req.url ?? "/", "http://x").pathname.split("/");
    const body = files[decodeURIComponent(name ?? "")];
    if (kind === "slow") {
      res.writeHead(200, { "content-type": "application/zip", "content-length": 10 * MiB });
      if (req.method === "HEAD") return res.end();
      const timer = setInterval(() => res.write(new Uint8Array(64 * 1024)), 100);
      // Only Cubby's proxy fetch counts (the browser's own CORS attempt is cut off too).
      const fromCubby = /deno/i.test(req.headers["user-agent"] ?? "");
      res.on("close", () => {
        clearInterval(timer);
        if (!res.writableFinished && fromCubby) aborted++;
      });
      return;
    }
    if (!body || (kind !== "files" && kind !== "cors")) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string | number> = {
      "content-type": "application/octet-stream",
      "content-length": body.length,
    };
    if (kind === "cors") headers["access-control-allow-origin"] = "*";
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    aborted: () => aborted,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A browser context logged in as the admin of `baseURL` (the app keeps its login here). */
function adminContext(browser: Browser, baseURL: string, token: string) {
  return newContext(browser, { baseURL, adminToken: token, adminName: ADMIN.username });
}

/** The URL tab of the upload screen. */
class UrlTab extends PageObject {
  readonly input = this.page.getByLabel("File URL");
  readonly fetchButton = this.page.getByRole("button", { name: "Fetch info" });
  readonly info = this.page.getByRole("region", { name: "File at the URL" });
  readonly uploadButton = this.page.getByRole("button", { name: "Upload from URL" });
  readonly error = this.page.getByRole("tabpanel").getByRole("alert");

  async open(): Promise<void> {
    await this.page.goto("/upload");
    await expect(this.page.getByLabel("Storage", { exact: true })).toHaveValue(/.+/);
    await this.page.getByRole("tab", { name: "From URL" }).click();
    await expect(this.input).toBeVisible();
  }

  async fetchInfo(url: string): Promise<void> {
    await this.input.fill(url);
    await this.fetchButton.click();
  }

  item(name: string): Locator {
    return this.page.getByRole("region", { name: "Files" }).getByRole("listitem")
      .filter({ hasText: name });
  }
}

async function downloadAsVisitor(browser: Browser, url: string): Promise<Buffer> {
  const context = await browser.newContext({ locale: "en-US" });
  try {
    const page = await context.newPage();
    await page.goto(url);
    return await downloadBytes(page.getByRole("link", { name: "Download", exact: true }).first());
  } finally {
    await context.close();
  }
}

/** Fetches info, uploads, and returns the share URL, checking the details shown. */
async function uploadFromUrl(tab: UrlTab, url: string, name: string, size: string) {
  await tab.fetchInfo(url);
  await expect(tab.info).toContainText(name);
  await expect(tab.info).toContainText(size);
  await expect(tab.info).toContainText("application/octet-stream");
  await tab.uploadButton.click();
  const link = tab.item(name).getByRole("textbox", { name: "Share link" });
  await expect(link).toBeVisible({ timeout: 60_000 });
  await expect(tab.item(name)).toContainText("Uploaded");
  return await link.inputValue();
}

/** The full flow on a server that may fetch loopback URLs. */
async function fullFlow(browser: Browser, context: BrowserContext, origin: Origin, files: {
  small: [string, Buffer];
  large: [string, Buffer];
}) {
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on("request", (r) => requests.push(r));
  const tab = new UrlTab(page);
  await tab.open();

  // Through the guarded proxy (the origin sends no CORS headers): presign + commit.
  const [small, smallBytes] = files.small;
  const smallUrl = await uploadFromUrl(tab, `${origin.url}/files/${small}`, small, "300 KB");
  const proxied = requests.filter((r) => r.url().includes("/api/url/proxy?"));
  expect(proxied).toHaveLength(1);
  expect(requests.some((r) => r.url().endsWith("/api/url/presign"))).toBe(true);
  expect(requests.some((r) => r.url().endsWith("/api/url/commit"))).toBe(true);
  expect((await downloadAsVisitor(browser, smallUrl)).equals(smallBytes)).toBe(true);

  // Straight from a CORS-enabled origin, then multipart (threshold lowered to 1 MiB).
  await page.evaluate(() => localStorage.setItem("cubby.multipartThreshold", String(1024 * 1024)));
  const [large, largeBytes] = files.large;
  requests.length = 0;
  const largeUrl = await uploadFromUrl(tab, `${origin.url}/cors/${large}`, large, "6.5 MB");
  expect(requests.filter((r) => r.url().includes("/api/url/proxy?")), "no proxy needed")
    .toHaveLength(0);
  expect(requests.some((r) => r.url().endsWith("/api/url/multipart/init"))).toBe(true);
  expect(requests.filter((r) => r.method() === "PUT" && /[?&]partNumber=/.test(r.url())))
    .toHaveLength(2);
  expect((await downloadAsVisitor(browser, largeUrl)).equals(largeBytes)).toBe(true);

  // A slow download shows its stage and progress, and Cancel stops it.
  const slow = `${uniqueSlug("slow")}.zip`;
  await tab.fetchInfo(`${origin.url}/slow/${slow}`);
  await expect(tab.info).toContainText("10 MB");
  await tab.uploadButton.click();
  await expect(tab.item(slow)).toContainText("Downloading through Cubby", { timeout: 15_000 });
  const bar = page.getByRole("progressbar", { name: `Upload progress of ${slow}` });
  await expect.poll(async () => Number(await bar.getAttribute("value") ?? 0), { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(Number(await bar.getAttribute("value"))).toBeLessThan(50);
  await tab.item(slow).getByRole("button", { name: `Cancel the upload of ${slow}` }).click();
  await expect(tab.item(slow)).toContainText("Cancelled");
  await expect.poll(() => origin.aborted(), { timeout: 10_000 }).toBeGreaterThan(0);
}

/** Two files for the origin to serve: a small one, and one above the multipart threshold. */
function originFiles() {
  return {
    small: [`${uniqueSlug("url")}.bin`, randomBytes(300 * 1024)] as [string, Buffer],
    large: [`${uniqueSlug("url-large")}.bin`, randomBytes(6.5 * MiB)] as [string, Buffer],
  };
}

test("URL upload on the shared server: refused for loopback, or the full flow when allowed", async ({ browser, adminToken }) => {
  test.setTimeout(120_000);
  const files = originFiles();
  const small = files.small[0];
  const origin = await startOrigin(Object.fromEntries([files.small, files.large]));
  const context = await adminContext(browser, sharedServerUrl(), adminToken);
  try {
    const probe = await context.request.post("/api/url/info", {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { url: `${origin.url}/files/${small}` },
    });
    const probeBody = await probe.json();
    if (probe.status() === 400) {
      // The server guards against request forgery: the screen says so.
      expect(probeBody.error).toBe("url_forbidden");
      const page = await context.newPage();
      const tab = new UrlTab(page);
      await tab.open();
      await tab.fetchInfo(`${origin.url}/files/${small}`);
      await expect(tab.error).toHaveText("This address may not be fetched");
      await expect(tab.info).toHaveCount(0);
      // Something that is not a URL never reaches the server.
      await tab.fetchInfo("ftp://example.com/x");
      await expect(tab.error).toHaveText("Invalid URL");
    } else {
      expect(probe.status(), JSON.stringify(probeBody)).toBe(200);
      await fullFlow(browser, context, origin, files);
    }
  } finally {
    await context.close();
    await origin.stop();
  }
});

test("URL upload, full flow, on a server allowed to fetch loopback URLs", async ({ browser }) => {
  test.setTimeout(180_000);
  const files = originFiles();
  const origin = await startOrigin(Object.fromEntries([files.small, files.large]));
  let server: TestServer | null = null;
  let context: BrowserContext | null = null;
  try {
    server = await startServer({ CUBBY_ALLOW_LOOPBACK_FETCH: "1" });
    const token = await loginAdmin(server);
    context = await adminContext(browser, server.url, token);
    await fullFlow(browser, context, origin, files);
  } finally {
    await context?.close();
    await server?.stop();
    await origin.stop();
  }
});
