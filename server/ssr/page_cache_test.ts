/**
 * The render cache of share pages (page_cache.ts, used by routes/pages.ts): a page asked for
 * again comes from the cache, and every change to what it shows is on the very next request.
 */
import assert from "node:assert/strict";
import { createPeerApp, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { sharePaste } from "../../tests/helpers/shares.ts";
import {
  documentFor,
  documents,
  NONCE_HOLE,
  RenderCache,
  TIME_SENTINEL,
  withTimeHole,
} from "./page_cache.ts";

/** An empty cache with the documents' bounds. */
const emptyDocumentCache = () =>
  new RenderCache<string, ReturnType<typeof documentFor>>(
    documents.bounds,
    (doc, key) => key.length * 2 + doc.size,
  );
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

/** Deletes paste `id` through the batch-delete route, as the admin. */
async function remove(t: TestApp, id: string) {
  const status = await t.statusOf("DELETE", "/api/pastes/batch-delete", await t.adminAuth(), {
    ids: [id],
  });
  assert.equal(status, 200);
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
    const { slug } = await sharePaste(t, { content: "# Cached\n\nonce rendered" });
    const first = await page(t, slug);
    const size = documents.size;
    const before = Date.now();
    const second = await page(t, slug);
    assert.equal(documents.size, size, "the second request rendered nothing new");
    assert.equal(second.root, first.root);
    assert.match(second.root, /once rendered/);
    assert.ok(second.data.site.lastUpdated >= before, "lastUpdated is the time of the request");
    assert.deepEqual(second.data.page, first.data.page);
  });
});

Deno.test("a cached share page shows an edit, a counted view and a delete on the next request", async () => {
  await withApp(async (t) => {
    const { id, slug } = await sharePaste(t, { content: "first version", remark: "one" });
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

    await remove(t, id);
    p = await page(t, slug);
    assert.equal(p.status, 404);
    assert.doesNotMatch(p.doc, /second version/);
  });
});

Deno.test("a cached share page shows edits made on another instance on the next request", async () => {
  await withApp(async (t) => {
    await using peer = await createPeerApp(t);
    const { id, slug } = await sharePaste(t, { content: "version AAA", remark: "one" });
    await page(t, slug);
    assert.match((await page(t, slug)).root, /version AAA/); // cached here

    // Content of the same length, then the remark: the record's versionstamp names the page.
    await edit(peer, id, { content: "version BBB" });
    let p = await page(t, slug);
    assert.match(p.root, /version BBB/);
    assert.doesNotMatch(p.doc, /version AAA/);
    await edit(peer, id, { remark: "two" });
    assert.equal((await page(t, slug)).data.page.paste?.remark, "two");

    await edit(peer, id, { slug: `${slug}-moved` });
    assert.equal((await page(t, slug)).status, 404);
    assert.match((await page(t, `${slug}-moved`)).root, /version BBB/);

    await edit(peer, id, { password: "pw-123456" });
    p = await page(t, `${slug}-moved`);
    assert.equal(p.data.page.paste?.content, null, "a locked share shows metadata only");
    assert.doesNotMatch(p.doc, /version BBB/);

    await remove(peer, id);
    assert.equal((await page(t, `${slug}-moved`)).status, 404);
  });
});

Deno.test("a cached share page answers 410 as soon as the share expires", async () => {
  await withApp(async (t) => {
    const expiresAt = Date.now() + 1500;
    const { slug } = await sharePaste(t, {
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
    const { slug } = await sharePaste(t, { content: "settings" });
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

Deno.test("PageCache: the nonce and time filled in per request, oversized documents not kept", () => {
  const cache = emptyDocumentCache();
  const json = withTimeHole(`{"site":{"lastUpdated":${TIME_SENTINEL}},"page":{}}`);
  const doc = `<script nonce="${NONCE_HOLE}">1</script><p>é中</p>` +
    `<script nonce="${NONCE_HOLE}">${json}</script>`;
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const expected = (nonce: string, at: number) =>
    `<script nonce="${nonce}">1</script><p>é中</p>` +
    `<script nonce="${nonce}">{"site":{"lastUpdated":${at}},"page":{}}</script>`;

  assert.equal(text(documentFor(cache, "k", () => doc).fill("n1", 5)), expected("n1", 5));
  assert.equal(cache.size, 1);
  const hit = documentFor(cache, "k", () => assert.fail("a hit renders nothing"));
  assert.equal(
    text(hit.fill("other-nonce", 1732406400123)),
    expected("other-nonce", 1732406400123),
  );

  const huge = "y".repeat(1100 * 1024);
  const big = documentFor(cache, "big", () => huge + json);
  assert.equal(text(big.fill("n", 1)), huge + `{"site":{"lastUpdated":1},"page":{}}`);
  assert.equal(cache.size, 1, "a document over the entry limit is not kept");
});

Deno.test("PageCache: a document without exactly one place for the time is refused", () => {
  const cache = emptyDocumentCache();
  assert.throws(() => withTimeHole("{}"), /lastUpdated exactly once/);
  const twice = `{"a":{"lastUpdated":${TIME_SENTINEL}},"b":{"lastUpdated":${TIME_SENTINEL}}}`;
  assert.throws(() => withTimeHole(twice), /lastUpdated exactly once/);
  assert.throws(
    () => documentFor(cache, "none", () => `<p nonce="${NONCE_HOLE}"></p>`),
    /one place/,
  );
  const json = withTimeHole(`{"lastUpdated":${TIME_SENTINEL}}`);
  assert.throws(() => documentFor(cache, "two", () => json + json), /one place/);
  assert.equal(cache.size, 0);
});

Deno.test("a page's nonce is new on every request and matches its CSP", async () => {
  await withApp(async (t) => {
    const { slug } = await sharePaste(t, { content: "nonce" });
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await t.request(`/paste/${slug}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
      assert.ok(nonce, csp);
      const doc = await res.text();
      const inDoc = [...doc.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);
      assert.ok(inDoc.length >= 1);
      assert.deepEqual(new Set(inDoc), new Set([nonce]), "every script carries the CSP's nonce");
      assert.doesNotMatch(doc, /cubby-(nonce|time)-/);
      nonces.add(nonce);
    }
    assert.equal(nonces.size, 3);
  });
});

Deno.test("shells are kept by their title, not by every URL asked for", async () => {
  await withApp(async (t) => {
    documents.clear();
    for (let i = 0; i < 20; i++) {
      const res = await t.request(`/?utm=${i}`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<div id="root"><\/div>/);
    }
    assert.equal(documents.size, 1, "one shell for every query of /");
    const { slug } = await sharePaste(t, { content: "kept apart" });
    await page(t, slug);
    assert.equal(documents.size, 2, "a share page is kept apart from the shells");
  });
});

Deno.test("RenderCache: the least recently used value goes first past either bound", () => {
  const cache = new RenderCache<string, string>(
    { entries: 3, bytes: 10, entryBytes: 6 },
    (v) => v.length,
  );
  cache.set("a", "11");
  cache.set("b", "22");
  cache.set("c", "33");
  assert.equal(cache.get("a"), "11", "a is now the most recently used");
  cache.set("d", "44"); // four values: b, the least recently used, goes
  assert.deepEqual(["a", "b", "c", "d"].map((k) => cache.get(k) ?? null), ["11", null, "33", "44"]);
  cache.set("e", "555555"); // 12 bytes: the oldest (a, touched before c and d) goes
  assert.equal(cache.size, 3);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.get("e"), "555555");
  assert.equal(cache.set("f", "7777777"), "7777777", "a value over entryBytes is returned");
  assert.equal(cache.get("f"), undefined, "but not kept");
  assert.equal(cache.getOrMake("e", () => assert.fail("kept")), "555555");
});
