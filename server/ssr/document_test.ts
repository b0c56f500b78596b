/** The document loads the page language's texts before the entry (client/i18n/registry.ts). */
import assert from "node:assert/strict";
import { renderDocument } from "./document.ts";

const assets = {
  js: "/assets/main-X.js",
  css: [],
  languages: { "zh-CN": "/assets/chunk-ZH.js", "en-US": "/assets/chunk-EN.js" },
};

Deno.test("the page language's chunk is a module script before the entry, the other is absent", () => {
  for (const [lang, own, other] of [["en-US", "EN", "ZH"], ["zh-CN", "ZH", "EN"]] as const) {
    const html = renderDocument({
      lang,
      title: "t",
      html: "",
      data: { siteTitle: "t" },
      assets,
      nonce: "n0nce",
    });
    const texts = html.indexOf(
      `<script type="module" nonce="n0nce" src="/assets/chunk-${own}.js">`,
    );
    const entry = html.indexOf(`<script type="module" nonce="n0nce" src="/assets/main-X.js">`);
    assert.ok(texts > 0 && entry > texts, `${lang}: texts before the entry`);
    assert.ok(!html.includes(`chunk-${other}.js`), `${lang}: no other language`);
  }
});

Deno.test("without language chunks in the manifest, only the entry is loaded", () => {
  const html = renderDocument({
    lang: "en-US",
    title: "t",
    html: "",
    data: { siteTitle: "t" },
    assets: { js: "/assets/main-X.js", css: [] },
    nonce: "n0nce",
  });
  assert.equal(html.match(/<script type="module"/g)?.length, 1);
});
