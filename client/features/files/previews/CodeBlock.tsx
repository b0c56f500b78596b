/**
 * Text or source code in a scrollable block. Highlighting (highlight.js, loaded on demand) is
 * applied to what fits MAX_HIGHLIGHT_CHARS; its output is escaped HTML made of spans.
 */
import { useEffect, useState } from "react";

const MAX_HIGHLIGHT_CHARS = 200_000;

export function CodeBlock(
  { text, language, label }: { text: string; language: string | null; label: string },
) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    setHtml(null);
    if (!language || text.length > MAX_HIGHLIGHT_CHARS) return;
    let alive = true;
    import("highlight.js/lib/common").then(({ default: hljs }) => {
      if (!alive || !hljs.getLanguage(language)) return;
      setHtml(hljs.highlight(text, { language, ignoreIllegals: true }).value);
    }).catch(() => {});
    return () => {
      alive = false;
    };
  }, [text, language]);

  return (
    <pre className="file-code" tabIndex={0} role="region" aria-label={label}>
      {html === null
        ? <code className="hljs">{text}</code>
        : <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />}
    </pre>
  );
}
