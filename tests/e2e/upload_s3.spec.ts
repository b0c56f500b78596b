/**
 * Browser uploads straight to an S3 bucket (issue 3: "a presigned browser upload straight to
 * s3rver"): s3rver runs for this spec with CORS rules for browsers (s3rver_fixture.ts), an S3
 * storage config pointing at it is created through the API, and the admin uploads on /upload
 * with that config selected. The browser's network log shows the bytes going to the s3rver
 * host (a PUT there, none to Cubby's upload route), and a visitor downloads the same bytes.
 * Two flows: presign + PUT + commit for a small file, and multipart (two parts, ETags read
 * through the exposed header) above a lowered threshold.
 */
import type { APIRequestContext, Locator, Page, Request } from "@playwright/test";
import type { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { ADMIN, expect, loginAdmin, sharedServerUrl, test } from "./fixtures.ts";
import { downloadAsVisitor, newContext, uniqueSlug } from "./pages/test_data.ts";
import { type BrowserS3, startBrowserS3 } from "./s3rver_fixture.ts";
import { s3rverConfigFields } from "../helpers/s3rver_config.ts";

test.use({ locale: "en-US" });
test.describe.configure({ mode: "serial" });

const MiB = 1024 * 1024;

let s3: BrowserS3;
let configId = "";
let configName = "";
const uploadedIds: string[] = [];

async function apiCall(
  request: APIRequestContext,
  token: string,
  method: "post" | "delete",
  path: string,
  data?: unknown,
) {
  const res = await request[method](`${sharedServerUrl()}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    data,
  });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

test.beforeAll(async ({ playwright }) => {
  s3 = await startBrowserS3();
  const request = await playwright.request.newContext();
  try {
    const token = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
    configName = uniqueSlug("s3rver");
    const created = await apiCall(request, token, "post", "/api/s3-configs", {
      ...s3rverConfigFields(s3),
      name: configName,
      region: "us-east-1",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    configId = created.body.data.id;
  } finally {
    await request.dispose();
  }
});

test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  try {
    const token = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
    if (uploadedIds.length) {
      await apiCall(request, token, "post", "/api/files/batch-delete", {
        ids: uploadedIds,
        delete_mode: "both",
      });
    }
    if (configId) await apiCall(request, token, "delete", `/api/s3-configs/${configId}`);
  } finally {
    await request.dispose();
    await s3?.stop();
  }
});

/** Uploads `bytes` as `name` on /upload with the s3rver config; returns the share URL. */
async function uploadToBucket(page: Page, name: string, bytes: Buffer): Promise<string> {
  await page.goto("/upload");
  const storage = page.getByLabel("Storage", { exact: true });
  await expect(storage.locator(`option[value="${configId}"]`)).toHaveCount(1);
  await storage.selectOption(configId);
  await page.getByLabel("Files to upload").setInputFiles({
    name,
    mimeType: "application/octet-stream",
    buffer: bytes,
  });
  await page.getByRole("button", { name: /^Start upload/ }).click();
  const item: Locator = page.getByRole("region", { name: "Files" }).getByRole("listitem")
    .filter({ hasText: name });
  const link = item.getByRole("textbox", { name: "Share link" });
  await expect(link).toBeVisible({ timeout: 60_000 });
  return await link.inputValue();
}

/** Records the page's requests that carry bytes: PUTs anywhere, and Cubby's upload routes. */
function watchUploads(page: Page) {
  const seen: Request[] = [];
  page.on("request", (req: Request) => {
    if (req.method() === "PUT" || /\/api\/(upload|upload-direct)\b/.test(req.url())) seen.push(req);
  });
  /** What was seen so far: method, URL and the body size the browser announced. */
  return async () =>
    await Promise.all(seen.map(async (req) => ({
      method: req.method(),
      url: req.url(),
      size: Number((await req.allHeaders())["content-length"] ?? -1),
    })));
}

/** The size of the object at a bucket URL, asked of s3rver directly (it checks no signature). */
async function objectSize(url: string): Promise<number> {
  const u = new URL(url);
  const res = await fetch(`${u.origin}${u.pathname}`, { method: "HEAD" });
  expect(res.status, `HEAD ${u.pathname}`).toBe(200);
  return Number(res.headers.get("content-length"));
}

test("a presigned upload goes straight to the bucket and downloads the same bytes", async ({ browser, adminToken }) => {
  test.setTimeout(90_000);
  const context = await newContext(browser, { adminToken });
  try {
    const page = await context.newPage();
    const watched = watchUploads(page);
    const name = `${uniqueSlug("s3-presign")}.bin`;
    const bytes = randomBytes(1_500_000);
    const commit = page.waitForResponse((r) => r.url().endsWith("/api/s3/commit"), {
      timeout: 60_000,
    });
    const url = await uploadToBucket(page, name, bytes);
    uploadedIds.push((await (await commit).json()).data.id);

    const seen = await watched();
    const s3Host = new URL(s3.endpoint).host;
    const toBucket = seen.filter((r) => new URL(r.url).host === s3Host);
    expect(toBucket.map((r) => r.method), JSON.stringify(seen)).toEqual(["PUT"]);
    expect(new URL(toBucket[0].url).pathname).toContain(`/${s3.bucket}/`);
    expect(toBucket[0].size).toBe(bytes.length);
    expect(await objectSize(toBucket[0].url), "the object is in the bucket").toBe(bytes.length);
    expect(seen.filter((r) => new URL(r.url).host !== s3Host), "no bytes through Cubby")
      .toEqual([]);

    const downloaded = await downloadAsVisitor(browser, url);
    expect(downloaded.equals(bytes)).toBe(true);
  } finally {
    await context.close();
  }
});

test("a multipart upload sends its parts straight to the bucket", async ({ browser, adminToken }) => {
  test.setTimeout(90_000);
  const context = await newContext(browser, { adminToken });
  try {
    await context.addInitScript(() => localStorage.setItem("cubby.multipartThreshold", "1"));
    const page = await context.newPage();
    const watched = watchUploads(page);
    const name = `${uniqueSlug("s3-multipart")}.bin`;
    const bytes = randomBytes(5 * MiB + 300_000);
    const complete = page.waitForResponse((r) => r.url().endsWith("/api/s3/multipart/complete"), {
      timeout: 60_000,
    });
    const url = await uploadToBucket(page, name, bytes);
    const completed = await complete;
    const sentParts = completed.request().postDataJSON().parts;
    expect(sentParts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 2]);
    for (const p of sentParts) expect(p.ETag, "ETag read through CORS").toMatch(/\S/);
    uploadedIds.push((await completed.json()).data.id);

    const seen = await watched();
    const s3Host = new URL(s3.endpoint).host;
    const parts = seen.filter((r) => new URL(r.url).host === s3Host);
    expect(parts.map((r) => r.method)).toEqual(["PUT", "PUT"]);
    expect(parts.map((r) => r.size).sort((a, b) => a - b)).toEqual([300_000, 5 * MiB]);
    expect(seen.filter((r) => new URL(r.url).host !== s3Host)).toEqual([]);
    expect(await objectSize(parts[0].url), "the parts were assembled").toBe(bytes.length);

    const downloaded = await downloadAsVisitor(browser, url);
    expect(downloaded.equals(bytes)).toBe(true);
  } finally {
    await context.close();
  }
});

test("an upload to a bucket that does not exist names the bucket, not CORS", async ({ browser, request, adminToken }) => {
  const created = await apiCall(request, adminToken, "post", "/api/s3-configs", {
    ...s3rverConfigFields(s3),
    bucket_name: "no-such-bucket",
    name: uniqueSlug("s3rver-missing"),
    region: "us-east-1",
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const missingId = created.body.data.id;
  const context = await newContext(browser, { adminToken });
  try {
    const page = await context.newPage();
    await page.goto("/upload");
    const storage = page.getByLabel("Storage", { exact: true });
    await expect(storage.locator(`option[value="${missingId}"]`)).toHaveCount(1);
    await storage.selectOption(missingId);
    const name = `${uniqueSlug("s3-missing")}.bin`;
    await page.getByLabel("Files to upload").setInputFiles({
      name,
      mimeType: "application/octet-stream",
      buffer: randomBytes(2048),
    });
    await page.getByRole("button", { name: /^Start upload/ }).click();
    const item = page.getByRole("region", { name: "Files" }).getByRole("listitem")
      .filter({ hasText: name });
    await expect(item).toContainText(
      'The bucket "no-such-bucket" does not exist: create it, or correct the bucket name',
    );
    await expect(item).not.toContainText("CORS");
  } finally {
    await context.close();
    await apiCall(request, adminToken, "delete", `/api/s3-configs/${missingId}`);
  }
});
