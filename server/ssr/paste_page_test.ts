import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { loadPastePage, SSR_HTML_MAX_BYTES } from "./paste_page.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t);
}

async function createPaste(t: TestApp, json: Record<string, unknown>) {
  const res = await t.request("/api/paste", { method: "POST", auth: await t.adminAuth(), json });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data as { id: string; slug: string };
}

/** Requests a share page through the app; returns status, document and its embedded data. */
async function page(t: TestApp, slug: string) {
  const res = await t.request(`/paste/${slug}`);
  const doc = await res.text();
  const m = doc.match(/<script id="__cubby_data" type="application\/json">([\s\S]*?)<\/script>/);
  assert.ok(m, "the document embeds its data");
  const data = JSON.parse(m[1]) as { page: Record<string, unknown> };
  return { status: res.status, doc, data: data.page, rest: doc.replace(m[0], "") };
}

async function views(t: TestApp, id: string): Promise<number> {
  const res = await t.request(`/api/pastes/${id}`, { auth: await t.adminAuth() });
  return (await res.json()).data.views;
}

const XSS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "[click](javascript:alert(1))",
  "<svg onload=alert(1)><circle/></svg>",
  '<iframe src="https://evil.example"></iframe>',
  '<a href="javascript:alert(1)" onclick="alert(1)">a</a>',
  "<object data=x></object><embed src=x><form><button>b</button></form>",
  "</script><script>alert(1)</script>",
];

const DANGEROUS = [
  /<script>alert/i,
  /<img[^>]*onerror/i,
  /<svg[^>]*onload/i,
  /<iframe/i,
  /<object/i,
  /<embed/i,
  /<form/i,
  /\son(error|load|click)\s*=/i,
  /href="javascript:/i,
  /javascript:alert/i,
];

Deno.test("GET /paste/{slug}: no XSS payload survives in the server-rendered document", async () => {
  await withApp(async (t) => {
    const md = `# Title\n\n${XSS.join("\n\n")}\n\n\`\`\`js\nconst safe = "<b>";\n\`\`\``;
    const p = await createPaste(t, { content: md });
    const r = await page(t, p.slug);
    assert.equal(r.status, 200);
    const html = r.data.html as string;
    assert.match(html, /<h1>Title<\/h1>/);
    assert.match(html, /<pre><code class="hljs language-js">/);
    for (const bad of DANGEROUS) {
      assert.doesNotMatch(html, bad, `page.html: ${bad}`);
      assert.doesNotMatch(r.rest, bad, `document: ${bad}`);
    }
    // The raw Markdown travels only inside the JSON data script, with "<" escaped.
    assert.equal((r.data.paste as { content: string }).content, md);
    assert.doesNotMatch(r.doc.match(/__cubby_data[^>]*>([\s\S]*?)<\/script>/)![1], /</);
    assert.match(r.doc, /<meta name="description" content="Title alert\(1\) click /);
  });
});

Deno.test("SSR of password or view-limited shares shows metadata only and counts no view", async () => {
  await withApp(async (t) => {
    const locked = await createPaste(t, {
      content: "top secret",
      password: "pw",
      remark: "private remark text",
    });
    const limited = await createPaste(t, { content: "only once", max_views: 1 });

    for (let i = 0; i < 3; i++) {
      const a = await page(t, locked.slug);
      assert.equal(a.status, 200);
      assert.equal(a.data.requires, "password");
      const paste = a.data.paste as Record<string, unknown>;
      assert.equal(paste.content, null);
      assert.equal(paste.has_password, true);
      assert.equal(paste.remark, null, "the remark waits for the password");
      assert.ok(!a.doc.includes("private remark text"));
      assert.equal(paste.can_manage, false);
      assert.ok(!a.doc.includes("top secret"));
      assert.ok(!("html" in a.data));

      const b = await page(t, limited.slug);
      assert.equal(b.status, 200);
      assert.equal(b.data.requires, "view");
      assert.equal((b.data.paste as Record<string, unknown>).content, null);
      assert.equal((b.data.paste as Record<string, unknown>).max_views, 1);
      assert.ok(!b.doc.includes("only once"));
      // Only the page's generic description, never a summary of the content.
      const description = b.doc.match(/<meta name="description" content="([^"]*)">/)?.[1];
      assert.ok(
        description === "A text share." || description === "一个文本分享。",
        String(description),
      );
    }
    assert.equal(await views(t, locked.id), 0);
    assert.equal(await views(t, limited.id), 0);

    const open = await t.request(`/api/paste/${limited.slug}`);
    assert.equal(open.status, 200);
    assert.equal((await open.json()).data.content, "only once");
    assert.equal((await page(t, limited.slug)).status, 410);
    const again = await t.request(`/api/paste/${limited.slug}`);
    assert.equal(again.status, 410);
    await again.body?.cancel();
  });
});

Deno.test("SSR answers 404 for missing shares and leaves huge contents to the browser", async () => {
  await withApp(async (t) => {
    const missing = await page(t, "nothing-here");
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.data, { error: "paste_not_found" });
    const odd = await page(t, "%E4%B8%AD%20x");
    assert.equal(odd.status, 404);

    const big = await createPaste(t, { content: "word ".repeat(SSR_HTML_MAX_BYTES / 4) });
    const load = await loadPastePage(t.services, big.slug, "en-US");
    assert.equal(load.status, 200);
    assert.equal(load.page.html, null);
    assert.equal(typeof (load.page.paste as { content: string }).content, "string");
    assert.equal(load.description?.length, 151);
    assert.ok(load.description?.endsWith("…"));

    const plain = await createPaste(t, { content: "plain **text**" });
    const first = await loadPastePage(t.services, plain.slug, "zh-CN");
    assert.deepEqual(Object.keys(first.page).sort(), ["html", "paste"]);
    assert.equal(first.page.html, "<p>plain <strong>text</strong></p>\n");
    assert.equal(first.description, "plain text");
    assert.equal(await views(t, plain.id), 0, "plain shares are not counted either");
  });
});
