/**
 * A large end-to-end encrypted file through Chromium, to local storage and to s3rver (direct
 * to the bucket: multipart PUTs up, a presigned GET down): uploaded in encrypted parts,
 * downloaded through the service worker's decrypting stream, identical at the end, with the
 * page's JS heap (CDP Performance.getMetrics, JSHeapUsedSize) bounded all along.
 *
 * A small file takes the presigned path to the same bucket (sealed whole, one PUT).
 *
 * The size is CUBBY_E2E_LARGE_MB (default 64: 1024 records of 64 KiB, 13 parts of 5 MiB),
 * which keeps the suite quick; bench/README.md records a run with CUBBY_E2E_LARGE_MB=1024.
 */
import type { CDPSession, Page } from "@playwright/test";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ADMIN, expect, loginAdmin, sharedServerUrl, test } from "./fixtures.ts";
import { newContext, uniqueSlug } from "./pages/test_data.ts";
import { E2ESharePage, E2EUploadPage } from "./pages/e2e_pages.ts";
import { type BrowserS3, startBrowserS3 } from "./s3rver_fixture.ts";
import { s3rverConfigFields } from "../helpers/s3rver_config.ts";

test.use({ locale: "en-US" });
test.describe.configure({ mode: "serial" });

const MiB = 1024 * 1024;
const SIZE = Number(process.env.CUBBY_E2E_LARGE_MB || 64) * MiB;
/** The heap may grow this much over its level before the upload, whatever the size. */
const HEAP_BOUND = 64 * MiB;

let dir = "";
let source = "";
let digest = "";
let s3: BrowserS3;
let configId = "";
/** The shared server's upload limit before this spec raised it, to put back afterwards. */
let limitBefore: { max_upload_size: number; max_upload_size_unit: string } | null = null;

/** Sets the shared server's upload limit (settings group 1). */
async function setUploadLimit(token: string, limit: NonNullable<typeof limitBefore>) {
  const res = await fetch(`${sharedServerUrl()}/api/admin/settings/group/1`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(limit),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** Writes SIZE bytes of a seeded pattern (no short period) and returns their SHA-256. */
async function writeSource(path: string): Promise<string> {
  const hash = createHash("sha256");
  const file = await open(path, "w");
  const chunk = new Uint8Array(MiB);
  let x = 0x9e3779b9;
  for (let at = 0; at < SIZE; at += chunk.length) {
    for (let i = 0; i < chunk.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      chunk[i] = x;
      chunk[i + 1] = x >>> 8;
      chunk[i + 2] = x >>> 16;
      chunk[i + 3] = x >>> 24;
    }
    const part = chunk.subarray(0, Math.min(chunk.length, SIZE - at));
    hash.update(part);
    await file.write(part);
  }
  await file.close();
  return hash.digest("hex");
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Uint8Array);
  return hash.digest("hex");
}

/** Samples the page's JS heap every 200 ms until stopped; returns the peak. */
async function watchHeap(page: Page) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const used = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return metrics.find((m) => m.name === "JSHeapUsedSize")!.value;
  };
  const base = await used();
  let peak = base;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await used().catch(() => peak));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { base, peak };
  };
}

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cubby-e2e-large-"));
  source = join(dir, `${uniqueSlug("large")}.bin`);
  digest = await writeSource(source);
  s3 = await startBrowserS3();
  const token = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
  const res = await fetch(`${sharedServerUrl()}/api/s3-configs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      ...s3rverConfigFields(s3),
      name: uniqueSlug("s3rver-e2e"),
      region: "us-east-1",
    }),
  });
  configId = (await res.json()).data.id;
  const limit = await (await fetch(`${sharedServerUrl()}/api/system/max-upload-size`)).json();
  if (limit.data.bytes < SIZE + 64 * MiB) {
    limitBefore = { max_upload_size: limit.data.value, max_upload_size_unit: limit.data.unit };
    await setUploadLimit(token, {
      max_upload_size: Math.ceil(SIZE / 1024 / MiB) + 1,
      max_upload_size_unit: "GB",
    });
  }
});

test.afterAll(async () => {
  const token = await loginAdmin({ url: sharedServerUrl() }, ADMIN);
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const files = await (await fetch(`${sharedServerUrl()}/api/files?limit=200`, { headers: auth }))
    .json();
  // This spec's shares: the large ones, and every one in its bucket (whose config goes next).
  type Row = { id: string; e2e?: unknown; size: number; storage_config_id: string };
  const ids = (files.data.items as Row[])
    .filter((f) => (f.e2e && f.size > SIZE) || f.storage_config_id === configId)
    .map((f) => f.id);
  if (ids.length) {
    await fetch(`${sharedServerUrl()}/api/files/batch-delete`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ ids, delete_mode: "both" }),
    });
  }
  if (configId) {
    await fetch(`${sharedServerUrl()}/api/s3-configs/${configId}`, {
      method: "DELETE",
      headers: auth,
    });
  }
  if (limitBefore) await setUploadLimit(token, limitBefore);
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

for (const target of ["local", "s3rver"] as const) {
  test(`a ${SIZE / MiB} MiB encrypted file to ${target} storage: bounded heap, identical copy`, async ({ browser, adminToken }) => {
    test.setTimeout(Math.max(180_000, (SIZE / MiB) * 2_000));
    const context = await newContext(browser, { adminToken, acceptDownloads: true });
    const page = await context.newPage();
    const upload = new E2EUploadPage(page);
    await upload.goto();
    if (target === "s3rver") {
      await upload.chooseStorage(configId);
      // Downloads straight from the bucket (a presigned GET the worker fetches with CORS).
      await page.getByLabel("Serve downloads through Cubby").uncheck();
    }
    const stopUpload = await watchHeap(page);
    const name = source.split("/").pop()!;
    const upStarted = Date.now();
    const link = await upload.uploadEncrypted(source, name, { timeout: SIZE / MiB * 2_000 });
    const upMs = Date.now() - upStarted;
    const up = await stopUpload();
    expect(up.peak - up.base, `upload heap: ${JSON.stringify(up)}`).toBeLessThan(HEAP_BOUND);

    const view = new E2ESharePage(page);
    await view.open(link);
    await expect(view.fileTitle).toHaveText(name);
    await view.workerReady();
    const stopDownload = await watchHeap(page);
    const downStarted = Date.now();
    const download = await view.download();
    const path = await download.path();
    const downMs = Date.now() - downStarted;
    const down = await stopDownload();
    // Recorded in bench/README.md for the 1 GiB run.
    console.log(JSON.stringify({
      target,
      mib: SIZE / MiB,
      upload_s: upMs / 1000,
      download_s: downMs / 1000,
      heap_mib: { upload: (up.peak - up.base) / MiB, download: (down.peak - down.base) / MiB },
    }));
    expect(down.peak - down.base, `download heap: ${JSON.stringify(down)}`).toBeLessThan(
      HEAP_BOUND,
    );
    expect(await download.failure()).toBeNull();
    expect(await sha256Of(path!)).toBe(digest);
    await download.delete();
    await context.close();
  });
}

test("a small encrypted file goes to the bucket presigned, and decrypts from it", async ({ browser, adminToken }) => {
  test.setTimeout(90_000);
  const context = await newContext(browser, { adminToken, acceptDownloads: true });
  const page = await context.newPage();
  const puts: string[] = [];
  page.on("request", (req) => void (req.method() === "PUT" && puts.push(req.url())));
  const upload = new E2EUploadPage(page);
  await upload.goto();
  await upload.chooseStorage(configId);
  await page.getByLabel("Serve downloads through Cubby").uncheck();
  const name = `${uniqueSlug("presigned")}.txt`;
  const bytes = new TextEncoder().encode("A small file, sealed whole, PUT once.\n".repeat(500));
  const link = await upload.uploadEncrypted({ name, mimeType: "text/plain", buffer: bytes }, name);
  expect(puts.length, "one presigned PUT").toBe(1);
  expect(new URL(puts[0]).origin).toBe(s3.endpoint);
  expect(puts[0]).not.toContain("partNumber");

  const view = new E2ESharePage(page);
  await view.open(link);
  await expect(page.getByLabel(`Contents of ${name}`)).toContainText("A small file, sealed whole");
  await view.workerReady();
  const download = await view.download();
  expect(Buffer.compare(await readFile((await download.path())!), Buffer.from(bytes))).toBe(0);
  await context.close();
});
