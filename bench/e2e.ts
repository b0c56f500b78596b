/**
 * End-to-end encrypted transfers in Chromium against plain ones of the same file in the same
 * run (docs/E2E.md): the real server (a temporary data dir, its upload limit raised), the built
 * client (dist/), Debian's Chromium through Playwright. For each storage (local, and s3rver with
 * --s3) one file of pseudo-random bytes is uploaded on /upload with the switch off, then on,
 * and downloaded from its share page (the plain "Download" link, then "Download and decrypt",
 * streamed by the service worker). Times run from the click to the share link, or to the
 * browser holding the whole download. The page's JS heap (CDP Performance.getMetrics,
 * JSHeapUsedSize) and the service worker's (Runtime.getHeapUsage) are sampled every 200 ms;
 * their peaks over the level before the transfer are shown. Each transfer runs --runs times
 * (default 2) and the fastest is kept.
 *
 *   deno task build && deno run -A bench/e2e.ts [--size-mb=256] [--runs=2] [--s3] [--no-write]
 */
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../tests/helpers/browser.ts";
import { loginAdmin } from "../tests/helpers/server.ts";
import { hashFile, MiB, startFilesServer, writePseudoRandomFile } from "../tests/shell/helpers.ts";
import { startBrowserS3 } from "../tests/e2e/s3rver_fixture.ts";
import { s3rverConfigFields } from "../tests/helpers/s3rver_config.ts";
import { adminStorageState } from "../tests/e2e/pages/admin_login.ts";
import { writeReadmeSection } from "./readme_section.ts";
import { serveFromBundle } from "./server_entry.ts";

const arg = (name: string, fallback: string) =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const SIZE = Number(arg("size-mb", "256")) * MiB;
const RUNS = Number(arg("runs", "2"));
const WITH_S3 = Deno.args.includes("--s3");

type Sample = { seconds: number; pageHeap: number; workerHeap: number | null };

/** Samples the page's and the service worker's heaps until stopped; returns the peaks' growth. */
async function watchHeaps(browser: Browser, page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const pageHeap = async () =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "JSHeapUsedSize")!
      .value;
  const worker = await workerHeapReader(browser);
  const base = { page: await pageHeap(), worker: await worker() };
  const peak = { ...base };
  let running = true;
  const loop = (async () => {
    while (running) {
      peak.page = Math.max(peak.page, await pageHeap().catch(() => 0));
      const w = await worker();
      if (w !== null && peak.worker !== null) peak.worker = Math.max(peak.worker, w);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return {
      pageHeap: peak.page - base.page,
      workerHeap: peak.worker === null || base.worker === null ? null : peak.worker - base.worker,
    };
  };
}

/**
 * Reads the service worker's used heap through the browser's CDP session (attached without
 * flattening, so messages go through Target.sendMessageToTarget); null when there is none.
 */
async function workerHeapReader(browser: Browser): Promise<() => Promise<number | null>> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send("Target.getTargets");
  const sw = targetInfos.find((t) => t.type === "service_worker");
  if (!sw) return () => Promise.resolve(null);
  const { sessionId } = await cdp.send("Target.attachToTarget", {
    targetId: sw.targetId,
    flatten: false,
  });
  let id = 0;
  const waiting = new Map<number, (v: number | null) => void>();
  cdp.on("Target.receivedMessageFromTarget", (e) => {
    const msg = JSON.parse(e.message);
    waiting.get(msg.id)?.(msg.result?.usedSize ?? null);
    waiting.delete(msg.id);
  });
  return () =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      cdp.send("Target.sendMessageToTarget", {
        sessionId,
        message: JSON.stringify({ id: n, method: "Runtime.getHeapUsage" }),
      }).catch(() => resolve(null));
    });
}

/** A context logged in as the admin (the app's stored login), accepting downloads. */
async function adminContext(browser: Browser, url: string, token: string) {
  return await browser.newContext({
    baseURL: url,
    acceptDownloads: true,
    locale: "en-US",
    storageState: adminStorageState(url, token),
  });
}

/** Uploads `path` on /upload (encrypted or not); resolves with the link and the sample. */
async function upload(
  browser: Browser,
  page: Page,
  path: string,
  opts: { e2e: boolean; configId?: string },
): Promise<{ link: string; sample: Sample }> {
  await page.goto("/upload");
  await page.getByLabel("Storage", { exact: true }).selectOption(opts.configId ?? { index: 0 });
  if (opts.configId) await page.getByLabel("Serve downloads through Cubby").uncheck();
  if (opts.e2e) await page.getByLabel("End-to-end encryption").check();
  await page.getByLabel("Files to upload").setInputFiles(path);
  const stop = await watchHeaps(browser, page);
  const started = performance.now();
  await page.getByRole("button", { name: /^Start upload/ }).click();
  const link = page.getByRole("region", { name: "Files" }).getByRole("textbox", {
    name: "Share link",
  });
  await link.waitFor({ timeout: 30 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  return { link: await link.inputValue(), sample: { seconds, ...await stop() } };
}

/** Downloads a share from its page; checks the bytes against `digest`. */
async function download(
  browser: Browser,
  page: Page,
  link: string,
  e2e: boolean,
  digest: string,
): Promise<Sample> {
  await page.goto(link);
  const button = e2e
    ? page.getByRole("button", { name: "Download and decrypt" })
    : page.getByRole("link", { name: "Download", exact: true }).first();
  await button.waitFor({ timeout: 60_000 });
  if (e2e) await page.evaluate(async () => void await navigator.serviceWorker.ready);
  const stop = await watchHeaps(browser, page);
  const started = performance.now();
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const path = await file.path();
  const seconds = (performance.now() - started) / 1000;
  const sample = { seconds, ...await stop() };
  if ((await hashFile(path!)).sha256 !== digest) throw new Error(`${link}: the download differs`);
  await file.delete();
  return sample;
}

const best = (samples: Sample[]) => samples.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const rate = (s: Sample) => `${(SIZE / MiB / s.seconds).toFixed(0)} MiB/s`;
const mib = (n: number | null) => n === null ? "n/a" : `${(n / MiB).toFixed(1)} MiB`;

async function measure(
  browser: Browser,
  context: BrowserContext,
  source: string,
  digest: string,
  configId?: string,
) {
  const page = await context.newPage();
  const rows: Record<string, Sample[]> = { plainUp: [], e2eUp: [], plainDown: [], e2eDown: [] };
  for (let run = 0; run < RUNS; run++) {
    const plain = await upload(browser, page, source, { e2e: false, configId });
    rows.plainUp.push(plain.sample);
    const e2e = await upload(browser, page, source, { e2e: true, configId });
    rows.e2eUp.push(e2e.sample);
    rows.plainDown.push(await download(browser, page, plain.link, false, digest));
    rows.e2eDown.push(await download(browser, page, e2e.link, true, digest));
  }
  await page.close();
  return Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, best(v)])) as Record<
    keyof typeof rows,
    Sample
  >;
}

await serveFromBundle();
const server = await startFilesServer(Math.ceil((2 * SIZE) / 1024 / MiB) + 1);
const s3 = WITH_S3 ? await startBrowserS3() : null;
const dir = await Deno.makeTempDir({ prefix: "cubby-bench-e2e-" });
const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
try {
  const source = join(dir, "bench.bin");
  const digest = await writePseudoRandomFile(source, SIZE);
  const token = await loginAdmin(server);
  const context = await adminContext(browser, server.url, token);
  const targets: [string, string | undefined][] = [["local", undefined]];
  if (s3) {
    const res = await fetch(`${server.url}/api/s3-configs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...s3rverConfigFields(s3), name: "bench", region: "us-east-1" }),
    });
    targets.push(["s3rver (direct)", (await res.json()).data.id]);
  }
  const lines = [
    `${SIZE / MiB} MiB of pseudo-random bytes, best of ${RUNS} runs, ${
      new Date().toISOString().slice(0, 10)
    }.`,
    "",
    "| Storage | Transfer | Plain | End-to-end | E2E ÷ plain upload (goal ≥ 0.5×) | E2E ÷ plain, same way | Page heap peak (E2E) | Worker heap peak (E2E) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const [name, configId] of targets) {
    const r = await measure(browser, context, source, digest, configId);
    for (
      const [what, plain, e2e] of [["upload", r.plainUp, r.e2eUp], [
        "download",
        r.plainDown,
        r.e2eDown,
      ]] as const
    ) {
      const toUpload = (r.plainUp.seconds / e2e.seconds).toFixed(2);
      const sameWay = (plain.seconds / e2e.seconds).toFixed(2);
      lines.push(
        `| ${name} | ${what} | ${rate(plain)} | ${rate(e2e)} | ${toUpload}× | ${sameWay}× | ${
          mib(e2e.pageHeap)
        } | ${mib(e2e.workerHeap)} |`,
      );
    }
  }
  const table = lines.join("\n");
  console.log(table);
  if (!Deno.args.includes("--no-write")) await writeReadmeSection("e2e", table);
} finally {
  await browser.close();
  await s3?.stop();
  await server.stop();
  await Deno.remove(dir, { recursive: true });
}
