/**
 * With a shared KV (KV_URL: several instances may serve it), a local storage config lives on one
 * host's disk: its card says so, in both languages and at phone width, beside the S3 configs,
 * which carry no such note.
 */
import { expect, loginAdmin, startServer, test } from "./fixtures.ts";
import { newAdminPage } from "./pages/test_data.ts";
import { startDenoKv } from "../helpers/denokv.ts";

const NOTES = {
  "en-US": "This storage lives on one server's disk",
  "zh-CN": "此存储位于单台服务器的磁盘上",
} as const;

test("a local storage config on a shared KV carries a warning on its card", async ({ browser }) => {
  await using kv = await startDenoKv();
  await using server = await startServer({
    KV_URL: kv.url,
    DENO_KV_ACCESS_TOKEN: kv.token,
    ENCRYPTION_SECRET: "e2e-shared-kv-secret",
  });
  const token = await loginAdmin(server);
  const made = await fetch(`${server.url}/api/s3-configs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "This host", provider_type: "local" }),
  });
  expect(made.status).toBe(201);
  for (const [locale, note] of Object.entries(NOTES)) {
    const { context, page } = await newAdminPage(browser, token, {
      baseURL: server.url,
      locale,
      viewport: { width: 390, height: 844 },
    });
    try {
      await page.goto("/admin/storage-config");
      const card = page.locator(".storage-card").filter({ hasText: "This host" });
      await expect(card.getByText(note)).toBeVisible();
      await expect(page.locator(".storage-single-host")).toHaveCount(1);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  }
  expect(server.output()).toMatch(/Warning: KV_URL is set|no local storage is created/);
});
