/**
 * Playwright global setup: starts one real Cubby server (main.ts on 127.0.0.1, a free port and
 * a temporary data directory) for every spec, and returns the teardown that stops it. Specs
 * reach it through `baseURL`; workers inherit the CUBBY_* variables set here. With
 * CUBBY_BASE_URL already set, the specs run against that server instead.
 */
import process from "node:process";
import { startServer, TEST_ADMIN } from "../helpers/server.ts";

export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  if (process.env.CUBBY_BASE_URL) return;
  const server = await startServer();
  process.env.CUBBY_BASE_URL = server.url;
  process.env.CUBBY_ADMIN_USERNAME = TEST_ADMIN.username;
  process.env.CUBBY_ADMIN_PASSWORD = TEST_ADMIN.password;
  return async () => {
    await server.stop();
  };
}
