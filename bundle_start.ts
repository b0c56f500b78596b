/**
 * Starts main.ts from a bundle: the single binary (main_binary.ts, `deno task compile`) and the
 * bundled server that `deno task start` runs (main_bundle.ts, scripts/bundle_server.ts). It
 * registers a literal `import()` for each module the server loads lazily
 * (server/lazy_import.ts), so the bundler includes them; each is still evaluated only on its
 * first use. The entries import server/bundle_require.ts before this module.
 */
import { registerLazyLoaders } from "./server/lazy_import.ts";

/** Runs main.ts with the built client in `distDir`, unless CUBBY_DIST_DIR names another. */
export async function startBundled(distDir: string): Promise<void> {
  registerLazyLoaders({
    "server/ssr/modules.ts": () => import("./server/ssr/modules.ts"),
    "server/storage/s3.ts": () => import("./server/storage/s3.ts"),
  });
  // Bundled, every module's import.meta is the entry's: config.ts would look for dist/ beside it.
  if (!Deno.env.get("CUBBY_DIST_DIR")) Deno.env.set("CUBBY_DIST_DIR", distDir);
  try {
    await import("./main.ts");
  } catch (err) {
    // main.ts has installed its handler of unhandled rejections by then, which keeps a running
    // server up: a failed start must still end the process with an error.
    console.error("Cubby could not start:", err);
    Deno.exit(1);
  }
}
