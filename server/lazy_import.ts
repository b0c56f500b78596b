/**
 * Imports a module when first needed, without Deno loading it at start-up.
 *
 * Deno builds the module graph of a program before running it, and that graph includes the
 * modules of every dynamic `import("literal")` with their own imports: their sources stay in
 * memory even when never imported (about 20 MB resident for the server-rendering modules, 8 MB
 * for the S3 driver). A specifier the graph cannot see is loaded only when imported. `deno
 * compile` cannot see it either, so every module loaded this way is listed with `--include` in
 * the `compile` task of deno.json (server/lazy_import_test.ts checks the list).
 */

/** The modules loaded through lazyImport, relative to the repository root. */
export const LAZY_MODULES = ["server/ssr/modules.ts", "server/storage/s3.ts"] as const;

/** Imports one of LAZY_MODULES (typed by the caller) on first call. */
export function lazyImport<T>(module: typeof LAZY_MODULES[number]): Promise<T> {
  const url = new URL(`../${module}`, import.meta.url).href;
  return import(url) as Promise<T>;
}
