/**
 * The server's resident memory after first use: one request of each kind (a small upload, a
 * paste, its share page, a file page, the app shell, a JSON view), then the RSS once it stops
 * moving must stay under a loose bound. The server is what `deno task start` runs: the bundle
 * (CUBBY_SERVER_BUNDLE from scripts/test.ts, else bundled here). The exact figures are in
 * bench/README.md ("Memory", `deno task bench:memory`); the bound leaves room for a busy
 * machine, and still fails if the server runs from its modules again (about 125 MiB) or a module
 * as heavy as jsdom (about 70 MB) comes back on the page path.
 */
import assert from "node:assert/strict";
import { startServer } from "./helpers/server.ts";
import { adminAuth, findServerPid, MiB } from "./shell/helpers.ts";
import { settledRss, useEveryPageKind } from "./helpers/first_use.ts";
import { tempDir } from "./helpers/temp.ts";
import { bundledServer } from "./helpers/bundle.ts";

/** The bound, in MiB (override with CUBBY_FIRST_USE_MAX_RSS_MB). */
const MAX_RSS_MB = Number(Deno.env.get("CUBBY_FIRST_USE_MAX_RSS_MB") ?? 115);

Deno.test({
  name:
    `RSS of the bundled server after first use of every page kind stays under ${MAX_RSS_MB} MiB`,
  sanitizeResources: false, // the server subprocess's pipes are closed by stop()
  sanitizeOps: false,
  async fn() {
    await using dir = await tempDir("cubby-memory-bundle-");
    await using server = await startServer({}, { entry: await bundledServer(dir.path) });
    const pid = await findServerPid(server.dataDir);
    const atRest = await settledRss(pid);
    await useEveryPageKind(server, await adminAuth(server));
    const afterFirstUse = await settledRss(pid);
    const mib = (b: number) => (b / MiB).toFixed(1);
    console.log(`RSS at rest ${mib(atRest)} MiB, after first use ${mib(afterFirstUse)} MiB`);
    assert.ok(
      afterFirstUse <= MAX_RSS_MB * MiB,
      `RSS after first use is ${mib(afterFirstUse)} MiB, over ${MAX_RSS_MB} MiB`,
    );
  },
});
