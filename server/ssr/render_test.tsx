/**
 * The server renders share pages with its own small route table (render.tsx); the browser
 * hydrates them with the app's full table. Both must give the same markup, or hydration fails.
 */
import assert from "node:assert/strict";
import { App } from "../../client/App.tsx";
import { createI18n } from "../../client/i18n/mod.ts";
import type { InitialData } from "../../client/app/initial_data.tsx";
import type { Language } from "../../shared/constants.ts";
import { createTestApp } from "../../tests/helpers/app.ts";
import { renderRoutes } from "./render.tsx";

/** What the browser's first render makes of a page: the full app with stock i18next. */
function renderWithFullApp(url: string, lang: Language, data: InitialData): string {
  return renderRoutes(url, createI18n(lang), data, <App />);
}

Deno.test("server-rendered pages equal the full app's render of the same data", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const slugs: string[] = [];
  for (
    const json of [
      { content: "# Title\n\nSome *text* and `code`.", remark: "a remark" },
      { content: "secret", password: "pw-123456" },
      { content: "limited", max_views: 3, expires_in: 3600 },
    ]
  ) {
    const res = await t.request("/api/paste", { method: "POST", auth, json });
    assert.equal(res.status, 201);
    slugs.push((await res.json()).data.slug);
  }
  const urls = [...slugs.map((s) => `/paste/${s}`), "/paste/nonexistent", "/offline"];
  for (const lang of ["en-US", "zh-CN"] as const) {
    for (const url of urls) {
      const res = await t.request(url, { headers: { cookie: `language=${lang}` } });
      const doc = await res.text();
      const root = doc.match(/<div id="root" data-ssr="1">([\s\S]*?)<\/div>\n<script id/)?.[1];
      const json = doc.match(/<script id="__cubby_data" type="application\/json">(.*?)<\/script>/)
        ?.[1];
      assert.ok(root && json, `${url} is server-rendered with its data`);
      const expected = renderWithFullApp(url, lang, JSON.parse(json));
      assert.equal(root, expected, `${lang} ${url}`);
    }
  }
});
