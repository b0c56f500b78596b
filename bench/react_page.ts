/**
 * The share page's ceiling for bench/http.ts: React 19 `renderToString` of a page as large as
 * the share page (ELEMENTS elements, about BYTES bytes of HTML) in a bare Deno.serve, with
 * React's production build. Nothing else: no routing, no i18n, no KV.
 */
Deno.env.set("NODE_ENV", "production");
const { createElement: h } = await import("react");
const { renderToString } = await import("react-dom/server");

const elements = Math.max(1, Number(Deno.env.get("ELEMENTS") ?? 100));
const bytes = Math.max(1, Number(Deno.env.get("BYTES") ?? 10_000));
// Text per element so that the markup reaches the target size.
const markup = (text: string) =>
  h(
    "main",
    { className: "page" },
    Array.from({ length: elements }, (_, i) =>
      h("p", { key: i, className: "item", "data-i": i }, `${text} ${i}`)),
  );
const bare = renderToString(markup("")).length;
const pad = "x".repeat(Math.max(0, Math.floor((bytes - bare) / elements)));

Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) =>
    console.log(`react page listening on http://${hostname}:${port}`),
}, () =>
  new Response(`<!doctype html><html><body>${renderToString(markup(pad))}</body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  }));
