/**
 * What specs import instead of `@playwright/test`: `test` (with the shared server's baseURL and
 * an opt-in `isolatedServer`), `expect`, the admin credentials, and API helpers.
 *
 *   import { ADMIN, expect, test } from "./fixtures.ts";
 *   test("…", async ({ page, isolatedServer }) => { await page.goto(isolatedServer.url); });
 */
import { expect, test as base } from "@playwright/test";
import process from "node:process";
import { loginAdmin, startServer, TEST_ADMIN, type TestServer } from "../helpers/server.ts";

/** The admin account of the shared server (set by global_setup.ts). */
export const ADMIN = {
  username: process.env.CUBBY_ADMIN_USERNAME || TEST_ADMIN.username,
  password: process.env.CUBBY_ADMIN_PASSWORD || TEST_ADMIN.password,
};

/** The shared server's URL, e.g. `http://127.0.0.1:41935`. */
export function sharedServerUrl(): string {
  const url = process.env.CUBBY_BASE_URL;
  if (!url) {
    throw new Error("CUBBY_BASE_URL is not set: run the specs through playwright.config.ts");
  }
  return url;
}

type Fixtures = {
  /** A server of its own for this test (fresh KV and data dir), stopped afterwards. */
  isolatedServer: TestServer;
  /** A logged-in admin session token on the shared server. */
  adminToken: string;
};

export const test = base.extend<Fixtures>({
  // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
  // deno-lint-ignore no-empty-pattern
  baseURL: async ({}, use) => {
    await use(sharedServerUrl());
  },
  // deno-lint-ignore no-empty-pattern
  isolatedServer: async ({}, use) => {
    const server = await startServer();
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  // deno-lint-ignore no-empty-pattern
  adminToken: async ({}, use) => {
    await use(await loginAdmin({ url: sharedServerUrl() }, ADMIN));
  },
});

export { expect, loginAdmin, startServer };
export type { TestServer };
