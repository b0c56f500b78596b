/**
 * The server's HTML sanitiser: one DOMPurify instance, with the shared policy of
 * shared/markdown.ts, on the small DOM of lite_window.ts (parse5 underneath) rather than jsdom,
 * which added about 70 MB to the resident memory of the first process that rendered Markdown.
 * server/ssr/lite_dom_test.ts shows that both give the very same output.
 */
import DOMPurify, { type WindowLike } from "dompurify";
import { createSanitizer } from "../../shared/markdown.ts";
import { createLiteWindow } from "./lite_window.ts";

let sanitizer: ((html: string) => string) | null = null;

/** The sanitiser with the shared Markdown policy (SANITIZE_CONFIG); it never throws on input. */
export function loadSanitizer(): Promise<(html: string) => string> {
  sanitizer ??= createSanitizer(DOMPurify(createLiteWindow() as unknown as WindowLike));
  return Promise.resolve(sanitizer);
}
