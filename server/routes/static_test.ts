import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { sharePaste } from "../../tests/helpers/shares.ts";

/** A dist/ directory with the files a build writes at the root, in assets/ and in icons/. */
async function makeDist(): Promise<string> {
  const dist = await Deno.makeTempDir({ prefix: "cubby-dist-" });
  await Deno.mkdir(join(dist, "assets"));
  await Deno.mkdir(join(dist, "icons"));
  await Deno.writeTextFile(join(dist, "sw.js"), "self.addEventListener('fetch', () => {});");
  await Deno.writeTextFile(join(dist, "robots.txt"), "User-agent: *\n");
  await Deno.writeTextFile(join(dist, "favicon.svg"), "<svg/>");
  await Deno.writeTextFile(join(dist, "assets/main-AB12.js"), "console.log(1)");
  await Deno.writeFile(join(dist, "icons/icon-192.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  await Deno.writeTextFile(join(dist, "assets/share-CD34.js"), "console.log(2)");
  await Deno.writeTextFile(
    join(dist, "manifest.json"),
    JSON.stringify({
      js: "/assets/main-AB12.js",
      css: ["/assets/main-AB12.css"],
      languages: { "zh-CN": "/assets/chunk-ZH.js", "en-US": "/assets/chunk-EN.js" },
      share: {
        js: "/assets/share-CD34.js",
        css: ["/assets/share-CD34.css"],
        languages: { "zh-CN": "/assets/chunk-SZH.js", "en-US": "/assets/chunk-SEN.js" },
      },
    }),
  );
  return dist;
}

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const dist = await makeDist();
  const t = await createTestApp({ CUBBY_DIST_DIR: dist });
  try {
    await fn(t);
  } finally {
    await t.close();
    await Deno.remove(dist, { recursive: true });
  }
}

Deno.test("root files, icons and assets are real files with their types", async () => {
  await withApp(async (t) => {
    const cases: [string, string][] = [
      ["/sw.js", "text/javascript; charset=utf-8"],
      ["/robots.txt", "text/plain; charset=utf-8"],
      ["/favicon.svg", "image/svg+xml"],
      ["/icons/icon-192.png", "image/png"],
      ["/assets/main-AB12.js", "text/javascript; charset=utf-8"],
    ];
    for (const [path, type] of cases) {
      const res = await t.request(path);
      await res.body?.cancel();
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("content-type"), type, path);
    }
  });
});

Deno.test("the service worker is served uncached, with the root scope allowed", async () => {
  await withApp(async (t) => {
    const res = await t.request("/sw.js");
    assert.equal(await res.text(), "self.addEventListener('fetch', () => {});");
    assert.equal(res.headers.get("service-worker-allowed"), "/");
    assert.equal(res.headers.get("cache-control"), "no-cache");
  });
});

Deno.test("unknown root files, assets and icons answer a plain 404, never the HTML shell", async () => {
  await withApp(async (t) => {
    for (
      const path of [
        "/foo.txt",
        "/favicon-x.png",
        "/favicon.ico",
        "/assets/main-OLD.js",
        "/assets/chunk-GONE.js",
        "/icons/nope.png",
        "/icons/",
        "/assets/../manifest.json",
      ]
    ) {
      const res = await t.request(path);
      const body = await res.text();
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain/, path);
      assert.ok(!body.includes("<html"), `${path} must not be the shell`);
    }
  });
});

Deno.test("malformed percent-encoding under /assets/ is a plain 400 url_malformed", async () => {
  await withApp(async (t) => {
    const res = await t.request("/assets/%E0%A4%A");
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    assert.ok(!(await res.text()).includes("<html"));
  });
});

Deno.test("app routes without an extension still get the HTML shell", async () => {
  await withApp(async (t) => {
    for (const path of ["/", "/upload", "/admin/dashboard", "/offline", "/app-shell"]) {
      const res = await t.request(path);
      assert.equal(res.status, 200, path);
      assert.match(await res.text(), /<div id="root"/, path);
    }
  });
});

Deno.test("the web app manifest is JSON of type application/manifest+json from the site title", async () => {
  await withApp(async (t) => {
    const saved = await t.call("PUT", "/api/admin/settings/group/4", await t.adminAuth(), {
      site_title: "My Very Long Clipboard Name",
    });
    assert.equal(saved.status, 200, saved.text);
    const res = await t.request("/manifest.webmanifest", { lang: "en-US" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/manifest+json; charset=utf-8");
    const m = await res.json();
    assert.equal(m.name, "My Very Long Clipboard Name");
    assert.equal(m.short_name, "My Very Long");
    assert.equal(m.start_url, "/");
    assert.equal(m.scope, "/");
    assert.equal(m.id, "/");
    assert.equal(m.display, "standalone");
    assert.equal(m.lang, "en-US");
    assert.ok(m.description.length > 0);
    assert.match(m.theme_color, /^#[0-9a-f]{6}$/);
    assert.match(m.background_color, /^#[0-9a-f]{6}$/);
    assert.deepEqual(
      m.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`),
      ["192x192 any", "512x512 any", "512x512 maskable"],
    );
    assert.deepEqual(m.shortcuts.map((s: { url: string }) => s.url), ["/", "/upload"]);
    assert.deepEqual(m.share_target, {
      action: "/share-target",
      method: "POST",
      enctype: "multipart/form-data",
      params: {
        title: "title",
        text: "text",
        url: "url",
        files: [{ name: "files", accept: ["*/*"] }],
      },
    });
  });
});

Deno.test("the document links the manifest, theme colour and iOS icon and title", async () => {
  await withApp(async (t) => {
    const doc = await (await t.request("/")).text();
    assert.match(doc, /<link rel="manifest" href="\/manifest.webmanifest">/);
    assert.match(doc, /<meta name="theme-color" content="#[0-9a-f]{6}">/);
    assert.match(doc, /<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon.png">/);
    assert.match(doc, /<meta name="apple-mobile-web-app-title" content="Cubby">/);
  });
});

/** The module scripts and stylesheets a document loads, in order. */
function documentAssets(doc: string): string[] {
  return [
    ...doc.matchAll(/<(?:script type="module"[^>]*src|link rel="stylesheet" href)="([^"]+)"/g),
  ]
    .map((m) => m[1]);
}

Deno.test("share pages load the share entry with its texts, every other page the app's entry", async () => {
  await withApp(async (t) => {
    const { slug } = await sharePaste(t, { content: "hello" });
    const share = ["/assets/share-CD34.css", "/assets/chunk-SEN.js", "/assets/share-CD34.js"];
    const app = ["/assets/main-AB12.css", "/assets/chunk-EN.js", "/assets/main-AB12.js"];
    const cases: [string, string[]][] = [
      [`/paste/${slug}`, share],
      ["/paste/missing-slug", share],
      ["/file/missing-slug", share],
      ["/", app],
      ["/offline", app],
      ["/admin/login", app],
      ["/paste/%E0%A4%A", app], // a malformed escape: the app's shell shows not-found
    ];
    for (const [path, expected] of cases) {
      const doc = await (await t.request(path, { headers: { "Accept-Language": "en-US" } }))
        .text();
      assert.deepEqual(documentAssets(doc), expected, path);
    }
  });
});

Deno.test("a build without the share entry is refused rather than serving share pages bare", async () => {
  const dist = await makeDist();
  await Deno.writeTextFile(
    join(dist, "manifest.json"),
    JSON.stringify({ js: "/assets/main-AB12.js", css: [] }),
  );
  const t = await createTestApp({ CUBBY_DIST_DIR: dist });
  try {
    const res = await t.request("/paste/abcdef");
    assert.equal(res.status, 500);
    await res.body?.cancel();
  } finally {
    await t.close();
    await Deno.remove(dist, { recursive: true });
  }
});

Deno.test("every route's document has a meta description of its own, in its language", async () => {
  await withApp(async (t) => {
    const routes = ["/", "/upload", "/admin/login", "/admin/dashboard", "/mount-explorer/a/b"];
    for (const lang of ["en-US", "zh-CN"]) {
      const seen = new Set<string>();
      for (const path of routes) {
        const doc = await (await t.request(path, { lang })).text();
        const description = doc.match(/<meta name="description" content="([^"]+)">/)?.[1];
        assert.ok(description, `${lang} ${path} has a description`);
        assert.equal(lang === "zh-CN", /[\u4e00-\u9fff]/.test(description), `${lang} ${path}`);
        assert.ok(!seen.has(description), `${lang} ${path}: "${description}" is another route's`);
        seen.add(description);
      }
    }
  });
});
