/**
 * Imports a module when first needed, without Deno loading it at start-up.
 *
 * Deno builds the module graph of a program before running it, and that graph includes the
 * modules of every dynamic `import("literal")` with their own imports: their sources stay in
 * memory even when never imported (about 20 MB resident for the server-rendering modules, 8 MB
 * for the S3 driver). A specifier the graph cannot see is loaded only when imported.
 *
 * The bundles (the single binary of `deno task compile`, the server that `deno task start` runs)
 * register a literal `import()` per module instead (bundle_start.ts): the bundler must see them
 * to include them, and a bundled module is still evaluated only on its first import.
 */

/** The modules loaded through lazyImport, relative to the repository root. */
export const LAZY_MODULES = ["server/ssr/modules.ts", "server/storage/s3.ts"] as const;

type LazyModule = typeof LAZY_MODULES[number];
let loaders: Partial<Record<LazyModule, () => Promise<unknown>>> = {};

/** Replaces the hidden specifiers by literal imports (the single binary's entry point). */
export function registerLazyLoaders(literal: Record<LazyModule, () => Promise<unknown>>): void {
  loaders = literal;
}

/** Imports one of LAZY_MODULES (typed by the caller) on first call. */
export function lazyImport<T>(module: LazyModule): Promise<T> {
  const literal = loaders[module];
  if (literal) return literal() as Promise<T>;
  const url = new URL(`../${module}`, import.meta.url).href;
  return import(url) as Promise<T>;
}
