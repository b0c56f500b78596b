/**
 * Everything the server needs to render pages, in one module that ssr/app_page.ts imports on
 * the first page request (see lazy_import.ts): React, react-router, i18next and the client's
 * pages, marked, highlight.js and the sanitiser (DOMPurify on parse5, see lite_window.ts).
 */
export { renderApp, serverI18n } from "./render.tsx";
export { loadPastePage } from "./paste_page.ts";
export { loadFilePage } from "./file_page.ts";
export { renderMarkdown } from "../../shared/markdown.ts";
export { loadSanitizer } from "./sanitize.ts";
