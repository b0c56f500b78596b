/**
 * The server's HTML sanitiser: one DOMPurify instance on a jsdom window, with the shared policy
 * of shared/markdown.ts. jsdom is imported on first use, not at start: it alone adds about
 * 60 MB to the resident memory of a server that may never render Markdown.
 */
import type { WindowLike } from "dompurify";
import { createSanitizer } from "../../shared/markdown.ts";

let sanitizer: Promise<(html: string) => string> | null = null;

async function createServerSanitizer(): Promise<(html: string) => string> {
  const [{ JSDOM }, { default: DOMPurify }] = await Promise.all([
    import("jsdom"),
    import("dompurify"),
  ]);
  const { window } = new JSDOM("<!doctype html><html><body></body></html>");
  return createSanitizer(DOMPurify(window as unknown as WindowLike));
}

/**
 * The sanitiser with the shared Markdown policy (SANITIZE_CONFIG), loaded once; the function it
 * resolves to never throws on input. Rejects only if jsdom cannot be loaded.
 */
export function loadSanitizer(): Promise<(html: string) => string> {
  sanitizer ??= createServerSanitizer().catch((err) => {
    sanitizer = null;
    throw err;
  });
  return sanitizer;
}
