/**
 * The render cache of share pages (page_cache.ts, used by routes/pages.ts): a page asked for
 * again comes from the cache, and every change to what it shows is on the very next request.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { PageCache, pageCache } from "./page_cache.ts";
import { renderApp } from "./render.tsx";
import { SITE_CONFIG_DEFAULTS } from "../../shared/schemas/settings.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

async function create(t: TestApp, json: Record<string, unknown>) {
  const res = await t.request("/api/paste", { method: "POST", auth: await t.adminAuth(), json });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data as { id: string; slug: string };
}

async function edit(t: TestApp, id: string, json: Record<string, unknown>) {
  const res = await t.request(`/api/pastes/${id}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    json,
  });
  assert.equal(res.status, 200, await res.text());
}

type Data = {
  site: { lastUpdated: number; title: string };
  page: { paste?: { content: string | null; views: number; remark: string | null } };
};

/** A share page: status, root markup, embedded data and the whole document. */
async function page(t: TestApp, slug: string) {
  const res = await t.request(`/paste/${slug}`, { headers: { cookie: "language=en-US" } });
  const doc = await res.text();
  const root = doc.match(/<div id="root"[^>]*>([\s\S]*?)<\/div>\n<script id/)?.[1] ?? "";
  const json = doc.match(/<script id="__cubby_data" type="application\/json">(.*?)<\/script>/)
    ?.[1];
  assert.ok(json, "the document embeds its data");
  return { status: res.status, root, doc, data: JSON.parse(json) as Data };
}

Deno.test("a share page asked for again comes from the cache, with a fresh lastUpdated", async () => {
  await withApp(async (t) => {
    const { slug } = await create(t, { content: "# Cached\n\nonce rendered" });
    const first = await page(t, slug);
    const size = pageCache.size;
    const before = Date.now();
    const second = await page(t, slug);
    assert.equal(pageCache.size, size, "the second request rendered nothing new");
    assert.equal(second.root, first.root);
    assert.match(second.root, /once rendered/);
    assert.ok(second.data.site.lastUpdated >= before, "lastUpdated is the time of the request");
    assert.deepEqual(second.data.page, first.data.page);
  });
});

Deno.test("a cached share page shows an edit, a counted view and a delete on the next request", async () => {
  await withApp(async (t) => {
    const { id, slug } = await create(t, { content: "first version", remark: "one" });
    assert.match((await page(t, slug)).root, /first version/);
    await page(t, slug); // now cached

    await edit(t, id, { content: "second version" });
    let p = await page(t, slug);
    assert.match(p.root, /second version/);
    assert.doesNotMatch(p.doc, /first version/);

    await edit(t, id, { remark: "two" });
    p = await page(t, slug);
    assert.equal(p.data.page.paste?.remark, "two");
    assert.match(p.root, /two/);

    const views = p.data.page.paste!.views;
    assert.equal((await t.request(`/api/paste/${slug}`)).status, 200); // counts a view
    p = await page(t, slug);
    assert.equal(p.data.page.paste?.views, views + 1);

    await edit(t, id, { password: "pw-123456" });
    p = await page(t, slug);
    assert.equal(p.status, 200);
    assert.equal(p.data.page.paste?.content, null, "a locked share shows metadata only");
    assert.doesNotMatch(p.doc, /second version/);

    const del = await t.request("/api/pastes/batch-delete", {
      method: "DELETE",
      auth: await t.adminAuth(),
      json: { ids: [id] },
    });
    assert.equal(del.status, 200);
    p = await page(t, slug);
    assert.equal(p.status, 404);
    assert.doesNotMatch(p.doc, /second version/);
  });
});

Deno.test("a cached share page answers 410 as soon as the share expires", async () => {
  await withApp(async (t) => {
    const expiresAt = Date.now() + 1500;
    const { slug } = await create(t, {
      content: "short-lived",
      expires_at: new Date(expiresAt).toISOString(),
    });
    assert.equal((await page(t, slug)).status, 200);
    assert.equal((await page(t, slug)).status, 200); // cached
    await new Promise((r) => setTimeout(r, expiresAt - Date.now() + 50));
    const p = await page(t, slug);
    assert.equal(p.status, 410);
    assert.doesNotMatch(p.doc, /short-lived/);
  });
});

Deno.test("a cached share page shows a settings change on the next request", async () => {
  await withApp(async (t) => {
    const { slug } = await create(t, { content: "settings" });
    await page(t, slug);
    assert.match((await page(t, slug)).root, /Powered by Cubby/);
    const res = await t.request("/api/admin/settings/group/4", {
      method: "PUT",
      auth: await t.adminAuth(),
      json: { site_title: "Acme", site_footer_markdown: "**Acme** footer" },
    });
    assert.equal(res.status, 200, await res.text());
    const p = await page(t, slug);
    assert.equal(p.data.site.title, "Acme");
    assert.match(p.root, /<strong>Acme<\/strong> footer/);
    assert.doesNotMatch(p.root, /Powered by Cubby/);
  });
});

Deno.test("the markup does not depend on lastUpdated, which the cache leaves out", () => {
  const data = (lastUpdated: number) => ({
    siteTitle: "Cubby",
    site: { ...SITE_CONFIG_DEFAULTS, lastUpdated },
    page: { error: "paste_not_found" },
  });
  for (const lang of ["en-US", "zh-CN"] as const) {
    assert.equal(
      renderApp("/paste/abc", lang, data(0)),
      renderApp("/paste/abc", lang, data(Date.now())),
    );
  }
});

Deno.test("PageCache: lastUpdated spliced in, oversized pages not kept, missing lastUpdated fails", () => {
  const cache = new PageCache();
  const render = (lastUpdated: number) => ({
    html: "<p>x</p>",
    dataJson: `{"site":{"lastUpdated":${lastUpdated}},"page":{}}`,
  });
  assert.equal(cache.get("k", 5, render).dataJson, `{"site":{"lastUpdated":5},"page":{}}`);
  assert.equal(cache.size, 1);
  const hit = cache.get("k", 7, () => assert.fail("a hit renders nothing"));
  assert.deepEqual(hit, { html: "<p>x</p>", dataJson: `{"site":{"lastUpdated":7},"page":{}}` });

  const huge = "y".repeat(600 * 1024);
  const big = cache.get("big", 1, (at) => ({ html: huge, dataJson: `{"lastUpdated":${at}}` }));
  assert.equal(big.html, huge);
  assert.equal(cache.size, 1, "a page over the entry limit is not kept");

  assert.throws(
    () => cache.get("bad", 1, () => ({ html: "", dataJson: "{}" })),
    /lastUpdated exactly once/,
  );
});
