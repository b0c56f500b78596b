/**
 * The single binary's entry point (`deno task compile`): main.ts from a bundle, with dist/
 * embedded beside this file.
 */
// First: bundled CommonJS packages need a global require before they are evaluated.
import "./server/bundle_require.ts";
import { join } from "node:path";
import { startBundled } from "./bundle_start.ts";

await startBundled(join(import.meta.dirname!, "dist"));
