/**
 * The bundled server's entry point: scripts/bundle_server.ts bundles it into dist-server/, which
 * `deno task start` runs, with the client in dist/ beside that directory.
 */
// First: bundled CommonJS packages need a global require before they are evaluated.
import "./server/bundle_require.ts";
import { join } from "node:path";
import { startBundled } from "./bundle_start.ts";

await startBundled(join(import.meta.dirname!, "..", "dist"));
