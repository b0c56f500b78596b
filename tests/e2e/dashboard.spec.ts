/**
 * The dashboard end to end (docs/PRODUCT.md §2.3): on a server of its own (so the counts are
 * exact), pastes and files are created through the API, including a non-proxied file on an
 * s3rver bucket whose download puts a presigned URL in the S3 URL cache. The admin then sees
 * the real totals and per-bucket usage, a chart that chart.js really drew, switches it from
 * bars to lines, and clears the cache.
 */
import type { Browser, Locator } from "@playwright/test";
import { PageObject } from "./pages/page_object.ts";
import { spawn } from "node:child_process";
import { callAdminApi, newAdminPage } from "./pages/test_data.ts";
import { findRepoRoot } from "../helpers/server.ts";
import { expect, loginAdmin, test, type TestServer } from "./fixtures.ts";
import { s3rverConfigFields } from "../helpers/s3rver_config.ts";

test.use({ locale: "en-US" });

/** The dashboard screen (client/features/dashboard/DashboardPage.tsx). */
class DashboardPage extends PageObject {
  readonly heading = this.h1("Dashboard");
  readonly chart = this.page.locator("figure.dashboard-chart");
  readonly canvas = this.chart.locator("canvas");
  readonly activityTable = this.page.getByRole("table", {
    name: "Shares created per day in the last 7 days",
  });
  private readonly kinds = this.page.getByRole("group", { name: "Chart type" });
  readonly barButton = this.kinds.getByRole("button", { name: "Bars" });
  readonly lineButton = this.kinds.getByRole("button", { name: "Lines" });
  readonly clearCache = this.page.getByRole("button", { name: "Clear all cache" });

  goto(): Promise<void> {
    return this.gotoAndWait("/admin/dashboard", this.heading);
  }

  /** The value shown for a total, by its label ("Text shares", "Stored by file shares"...). */
  total(label: string): Locator {
    return this.page.locator(".dashboard-total").filter({ hasText: label }).locator("dd");
  }

  /** One cache's entry, by its shown name ("S3 URL cache"). */
  cache(name: string): Locator {
    return this.page.locator(".dashboard-cache").filter({ hasText: name });
  }

  /** One bucket's usage entry, by config name. */
  bucket(name: string): Locator {
    return this.page.locator(`.dashboard-bucket[data-bucket="${name}"]`);
  }

  /** A fingerprint of the canvas pixels: how many are painted, and a rolling hash. */
  canvasPixels(): Promise<{ painted: number; hash: number }> {
    return this.canvas.evaluate((el) => {
      const canvas = el as HTMLCanvasElement;
      const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      let hash = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 0) painted++;
        hash = (hash * 31 + data[i] + data[i + 1] * 7 + data[i + 2] * 13 + data[i + 3]) | 0;
      }
      return { painted, hash };
    });
  }
}

type S3 = { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string };

/**
 * Starts s3rver through tests/helpers/s3rver.ts in a `deno eval` child (Playwright loads specs
 * as CommonJS, where that helper's `import.meta` cannot be used); closing stdin stops it.
 */
function startS3rver(): Promise<S3 & { stop: () => Promise<void> }> {
  const code = `import { startS3rver } from "./tests/helpers/s3rver.ts";
const s3 = await startS3rver();
console.log(JSON.stringify(s3));
for await (const _ of Deno.stdin.readable) { /* wait for the parent to close stdin */ }
await s3.stop();`;
  const child = spawn(Deno.execPath(), ["eval", code], {
    cwd: findRepoRoot(),
    stdio: ["pipe", "pipe", "inherit"],
  });
  const closed = new Promise<void>((done) => child.on("close", () => done()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("close", (code) => reject(new Error(`s3rver launcher exited (${code}): ${out}`)));
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (!line) return;
      resolve({
        ...JSON.parse(line),
        stop: async () => {
          child.stdin!.end();
          await closed;
        },
      });
    });
  });
}

async function upload(
  server: TestServer,
  token: string,
  size: number,
  fields: Record<string, string> = {},
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set("file", new Blob([new Uint8Array(size).fill(65)]), `dash-${size}.bin`);
  return await callAdminApi(server, token, "/upload", { method: "POST", body: fd });
}

/** A page on `server` with the admin session seeded, as the app stores it. */
function adminPage(browser: Browser, server: TestServer, token: string) {
  return newAdminPage(browser, token, { baseURL: server.url });
}

test("the dashboard shows real counts, a drawn chart, bar/line, and clears the cache", async ({ browser, isolatedServer }) => {
  test.setTimeout(90_000);
  const server = isolatedServer;
  const s3 = await startS3rver();
  try {
    const token = await loginAdmin(server);
    for (const content of ["one", "two", "three"]) {
      await callAdminApi(server, token, "/paste", {
        method: "POST",
        body: JSON.stringify({ content }),
      });
    }
    await upload(server, token, 3000);
    const bucket = await callAdminApi(server, token, "/s3-configs", {
      method: "POST",
      body: JSON.stringify({
        ...s3rverConfigFields(s3),
        name: "Dash bucket",
        total_storage_bytes: 4000,
      }),
    });
    const s3File = await upload(server, token, 1000, {
      s3_config_id: bucket.id,
      use_proxy: "false",
    });
    // A download redirects to a presigned URL, which the S3 URL cache keeps.
    const redirect = await fetch(`${server.url}/api/file-download/${s3File.slug}`, {
      redirect: "manual",
    });
    await redirect.body?.cancel();
    expect(redirect.status).toBe(302);

    const { context, page } = await adminPage(browser, server, token);
    try {
      const dash = new DashboardPage(page);
      await dash.goto();
      await expect(dash.total("Text shares")).toHaveText("3");
      await expect(dash.total("File uploads")).toHaveText("2");
      await expect(dash.total("API keys")).toHaveText("0");
      await expect(dash.total("Storage configs")).toHaveText("2");
      // The number says exactly what it counts: file shares, not whatever else the storage holds.
      await expect(dash.total("Stored by file shares")).toHaveText("3.91 KB");
      await expect(page.getByText("Files put into mounts or through WebDAV are not counted."))
        .toBeVisible();
      await expect(dash.bucket("Dash bucket")).toContainText(
        "File shares: 1000 B of 3.91 KB (25%)",
      );
      await expect(dash.bucket("Dash bucket").getByRole("progressbar")).toHaveAttribute(
        "aria-valuenow",
        "25",
      );
      await expect(dash.bucket("Local storage")).toContainText("File shares: 2.93 KB · no quota");

      // Today is the last row of the accessible table behind the chart.
      const today = dash.activityTable.locator("tbody tr").last();
      await expect(today.locator("td")).toHaveText(["3", "2"]);
      await expect(dash.canvas).toHaveAttribute("aria-label", /3 text shares and 2 file uploads/);

      // chart.js drew something, as bars.
      await expect(dash.chart).toHaveAttribute("data-chart-type", "bar");
      await expect(dash.barButton).toHaveAttribute("aria-pressed", "true");
      await expect.poll(async () => (await dash.canvasPixels()).painted).toBeGreaterThan(1000);
      const bars = await dash.canvasPixels();

      await dash.lineButton.click();
      await expect(dash.lineButton).toHaveAttribute("aria-pressed", "true");
      await expect(dash.chart).toHaveAttribute("data-chart-type", "line");
      await expect.poll(async () => (await dash.canvasPixels()).hash).not.toBe(bars.hash);
      expect((await dash.canvasPixels()).painted).toBeGreaterThan(1000);

      // The S3 URL cache holds the presigned URL; clearing all empties it.
      const s3Cache = dash.cache("S3 URL cache");
      await expect(s3Cache.locator('[data-stat="items"]')).toHaveText("1");
      await expect(s3Cache.locator('[data-stat="hit-rate"]')).toHaveText("0%");
      await dash.clearCache.click();
      const dialog = page.getByRole("alertdialog", { name: "Clear all cache?" });
      await dialog.getByRole("button", { name: "Clear cache" }).click();
      await expect(page.getByText("Cache cleared: 1 item dropped.")).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(s3Cache.locator('[data-stat="items"]')).toHaveText("0");
    } finally {
      await context.close();
    }
  } finally {
    await s3.stop();
  }
});

test("the dashboard fits 360 px and speaks Chinese", async ({ browser, isolatedServer }) => {
  const token = await loginAdmin(isolatedServer);
  await callAdminApi(isolatedServer, token, "/paste", {
    method: "POST",
    body: JSON.stringify({ content: "你好" }),
  });
  const { context, page } = await adminPage(browser, isolatedServer, token);
  try {
    await context.addCookies([{ name: "language", value: "zh-CN", url: isolatedServer.url }]);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "仪表盘" })).toBeVisible();
    await expect(page.locator(".dashboard-total").filter({ hasText: "文本分享" }).locator("dd"))
      .toHaveText("1");
    await expect(page.getByRole("button", { name: "折线图" })).toBeVisible();
    await expect(page.getByRole("button", { name: "清除所有缓存" })).toBeVisible();
    const overflow = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    expect(overflow).toBeLessThanOrEqual(0);
  } finally {
    await context.close();
  }
});
