/**
 * Lazily loaded pages whose failed load can be retried. React.lazy keeps a rejected import for
 * good, so each page keeps its current lazy component here and a retry swaps in a fresh one.
 * A failed load (offline, or a redeploy that removed the old chunks) also dispatches
 * PRELOAD_ERROR_EVENT on window, with the error as detail.
 */
import { type ComponentType, createElement, lazy, type LazyExoticComponent } from "react";

/** Window event fired when a lazy chunk fails to load (docs/PRODUCT.md §8.5). */
export const PRELOAD_ERROR_EVENT = "cubby:preload-error";

type Entry = { current: LazyExoticComponent<ComponentType>; failed: boolean; remake(): void };
const entries = new Set<Entry>();

/** A page component loaded on first render; see retryFailedPages. */
// deno-lint-ignore no-explicit-any
export function lazyPage<P extends Record<string, any>>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  const make = () =>
    lazy(() =>
      load().catch((err) => {
        entry.failed = true;
        globalThis.dispatchEvent?.(new CustomEvent(PRELOAD_ERROR_EVENT, { detail: err }));
        throw err;
      })
    ) as unknown as LazyExoticComponent<ComponentType>;
  const entry: Entry = {
    current: make(),
    failed: false,
    remake() {
      entry.current = make();
      entry.failed = false;
    },
  };
  entries.add(entry);
  return (props: P) => createElement(entry.current as unknown as ComponentType<P>, props);
}

/** Makes every page whose load failed load again on its next render. */
export function retryFailedPages() {
  for (const entry of entries) if (entry.failed) entry.remake();
}

const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|error loading dynamically/i;

/** True when an error is a failed dynamic import (the wording differs per browser). */
export function isChunkLoadError(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return CHUNK_ERROR.test(msg);
}
