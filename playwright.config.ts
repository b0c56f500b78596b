/**
 * Playwright: the specs under tests/e2e drive Debian's Chromium against one real Cubby server
 * started by tests/e2e/global_setup.ts. Run with `deno task test:e2e` (which builds the client
 * first) or `deno run -A npm:@playwright/test@1.65.1 test`.
 */
import { defineConfig } from "@playwright/test";
import process from "node:process";
import { CHROMIUM_LAUNCH_OPTIONS } from "./tests/helpers/browser.ts";

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  globalTimeout: 30 * 60_000,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  workers: Number(process.env.CUBBY_E2E_WORKERS) || 2,
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.CUBBY_E2E_JSON || "test-results/e2e-results.json" }],
  ],
  globalSetup: "./tests/e2e/global_setup.ts",
  use: {
    baseURL: process.env.CUBBY_BASE_URL,
    browserName: "chromium",
    headless: true,
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    serviceWorkers: "allow",
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
});
