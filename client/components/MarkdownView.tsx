/**
 * Shows sanitised Markdown HTML. The renderer (marked, highlight.js, DOMPurify) is loaded on
 * demand, so the server-rendered paste page does not ship it until it has to render itself.
 */
import { useEffect, useState } from "react";

/** Renders `html`, which must already be sanitised (by the server or by lib/markdown.ts). */
export function MarkdownView(
  { html, label, className }: { html: string; label?: string; className?: string },
) {
  return (
    <div
      className={`markdown-body ${className ?? ""}`}
      aria-label={label}
      role={label ? "region" : undefined}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

function escapeText(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

/**
 * Sanitised HTML of `content`, rendered in the browser after `delayMs` of quiet (null while
 * the first rendering is pending, or when content is null). Keeps the last result while a
 * newer one is being made, so a live preview does not flicker.
 */
export function useRenderedMarkdown(content: string | null, delayMs = 0): string | null {
  const [rendered, setRendered] = useState<string | null>(null);
  useEffect(() => {
    if (content === null) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      let html: string;
      try {
        const { renderMarkdown } = await import("../lib/markdown.ts");
        html = renderMarkdown(content);
      } catch {
        // The renderer failed to load (a new deploy, a flaky network): the view is already
        // counted, so show the text itself rather than a spinner forever.
        html = `<pre class="markdown-fallback">${escapeText(content)}</pre>`;
      }
      if (!cancelled) setRendered(html);
    }, delayMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [content, delayMs]);
  if (content === null) return null;
  return rendered;
}
