/**
 * Markdown for the browser: the shared renderer (marked + highlight.js classes) with DOMPurify
 * bound to this window and the same sanitising policy the server uses (docs/PRODUCT.md §13.7).
 */
import DOMPurify from "dompurify";
import { createSanitizer, renderMarkdown as renderShared } from "../../shared/markdown.ts";

let sanitizer: ((html: string) => string) | null = null;

/** Sanitises HTML with the shared policy (SANITIZE_CONFIG and its link hook); browser only. */
export function sanitizeHtml(html: string): string {
  sanitizer ??= createSanitizer(DOMPurify(globalThis as unknown as Window & typeof globalThis));
  return sanitizer(html);
}

/** Renders Markdown (GFM) to sanitised HTML with highlighted code; browser only. */
export function renderMarkdown(markdown: string): string {
  return renderShared(markdown, sanitizeHtml);
}
