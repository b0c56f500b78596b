/**
 * The server's HTML sanitiser: one DOMPurify instance on a jsdom window, created on first use
 * and reused, with the shared policy of shared/markdown.ts.
 */
import { JSDOM } from "jsdom";
import DOMPurify, { type WindowLike } from "dompurify";
import { createSanitizer } from "../../shared/markdown.ts";

let sanitizer: ((html: string) => string) | null = null;

/** Sanitises HTML with the shared Markdown policy (SANITIZE_CONFIG); never throws on input. */
export function sanitizeHtml(html: string): string {
  if (!sanitizer) {
    const { window } = new JSDOM("<!doctype html><html><body></body></html>");
    sanitizer = createSanitizer(DOMPurify(window as unknown as WindowLike));
  }
  return sanitizer(html);
}
