/**
 * The single binary's entry point (`deno task compile`): main.ts, with the lazily imported
 * modules made visible to the bundler, and dist/ found beside this file.
 */
// First: bundled CommonJS packages need a global require before they are evaluated.
import "./server/bundle_require.ts";
import { join } from "node:path";
import { registerLazyLoaders } from "./server/lazy_import.ts";

registerLazyLoaders({
  "server/ssr/modules.ts": () => import("./server/ssr/modules.ts"),
  "server/storage/s3.ts": () => import("./server/storage/s3.ts"),
});
// Bundled, every module's import.meta is this file's: config.ts would look for dist/ above it.
if (!Deno.env.get("CUBBY_DIST_DIR")) {
  Deno.env.set("CUBBY_DIST_DIR", join(import.meta.dirname!, "dist"));
}
await import("./main.ts");
