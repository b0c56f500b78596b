import assert from "node:assert/strict";
import {
  ALL_KEY_PERMISSIONS,
  createPeerApp,
  createTestApp,
  type TestApp,
} from "../../tests/helpers/app.ts";
import { sharePaste } from "../../tests/helpers/shares.ts";
import { CACHE_TTL_MS } from "../services/settings.ts";
import { DEFAULT_PREVIEW_EXTENSIONS } from "../../shared/preview_types.ts";
import { createI18n } from "../../client/i18n/mod.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t);
}

async function json(res: Response) {
  return await res.json() as {
    code: number;
    success: boolean;
    error?: string;
    message: string;
    data: Record<string, unknown> & Record<string, unknown>[];
  };
}

async function put(t: TestApp, group: number | string, body: unknown, query = "") {
  return await t.request(`/api/admin/settings/group/${group}${query}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    json: body,
  });
}

async function values(t: TestApp, group: number): Promise<Record<string, unknown>> {
  const res = await t.request(`/api/admin/settings?group=${group}`, { auth: await t.adminAuth() });
  assert.equal(res.status, 200);
  const list = (await json(res)).data as unknown as { key: string; value: unknown }[];
  return Object.fromEntries(list.map((e) => [e.key, e.value]));
}

Deno.test("settings routes: permission table (anonymous, key user, admin)", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const key = await t.createKey(ALL_KEY_PERMISSIONS);
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/admin/settings"],
      ["GET", "/api/admin/settings?group=1&metadata=true&includeSystem=true"],
      ["GET", "/api/admin/settings/groups"],
      ["GET", "/api/admin/settings/metadata?key=site_title"],
      ["PUT", "/api/admin/settings/group/4", { site_title: "X" }],
      ["PUT", "/api/admin/settings/group/1", { default_use_proxy: false }],
    ];
    const table: [string, string | undefined, number][] = [
      ["anonymous", undefined, 401],
      ["key user with every permission", key.auth, 403],
      ["admin", admin, 200],
    ];
    for (const [method, path, body] of routes) {
      for (const [who, auth, status] of table) {
        const res = await t.request(path, { method, auth, json: body });
        assert.equal(res.status, status, `${who}: ${method} ${path}`);
        await res.body?.cancel();
      }
    }
    // The site group (with the preview lists) is the one thing anyone may read, also through
    // GET /api/admin/settings?group=4 as CloudPaste's client asks.
    for (const [who, auth] of table) {
      const group = await t.request("/api/admin/settings?group=4", { auth });
      assert.equal(group.status, 200, `${who}: group 4`);
      const entries = (await json(group)).data as unknown as { key: string; value: unknown }[];
      assert.ok(entries.every((e) => e.key.startsWith("site_")), who);
      assert.equal(entries.find((e) => e.key === "site_title")?.value, "X", who);
      const res = await t.request("/api/public/site-config", { auth });
      assert.equal(res.status, 200, who);
      const data = (await json(res)).data;
      assert.equal(data.site_title, "X");
      assert.deepEqual(Object.keys(data).filter((k) => !k.startsWith("site_")), [
        "preview_types",
      ]);
    }
  });
});

Deno.test("settings: defaults, groups, metadata and includeSystem", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    assert.deepEqual(await values(t, 1), {
      max_upload_size: 100,
      max_upload_size_unit: "MB",
      default_use_proxy: true,
      file_overwrite_mode: "overwrite",
      proxy_sign_all: true,
      proxy_sign_expires: 0,
    });
    assert.equal((await values(t, 2)).preview_document_types, "pdf");
    assert.equal(
      (await values(t, 2)).preview_image_types,
      DEFAULT_PREVIEW_EXTENSIONS.image.join(", "),
    );
    assert.deepEqual(await values(t, 3), { webdav_upload_mode: "direct" });
    assert.equal("site_updated_at" in await values(t, 4), false, "system keys are hidden");

    const all = (await json(await t.request("/api/admin/settings", { auth: admin }))).data;
    assert.deepEqual([...new Set(all.map((e) => e.group))], [1, 2, 3, 4]);

    const withMeta = (await json(
      await t.request("/api/admin/settings?group=4&metadata=1&includeSystem=true", {
        auth: admin,
      }),
    )).data;
    const updated = withMeta.find((e) => e.key === "site_updated_at")!;
    assert.equal(updated.system, true);
    const title = withMeta.find((e) => e.key === "site_title")!;
    assert.equal(title.type, "string");
    assert.equal(title.default, "Cubby");
    assert.equal(title.label_key, "settings.fields.site_title.label");

    const groups = (await json(await t.request("/api/admin/settings/groups", { auth: admin })))
      .data;
    assert.deepEqual(groups.map((g) => [g.id, g.name, g.count]), [
      [1, "global", 6],
      [2, "preview", 6],
      [3, "webdav", 1],
      [4, "site", 8],
    ]);

    const one = await t.request("/api/admin/settings/metadata?key=proxy_sign_expires", {
      auth: admin,
    });
    const meta = (await json(one)).data;
    assert.deepEqual([meta.group, meta.type, meta.min, meta.max, meta.unit], [
      1,
      "integer",
      0,
      31_536_000,
      "seconds",
    ]);
    const every = (await json(await t.request("/api/admin/settings/metadata", { auth: admin })))
      .data;
    assert.equal(every.length, 22);
    const missing = await t.request("/api/admin/settings/metadata?key=nope", { auth: admin });
    assert.equal(missing.status, 404);
    assert.equal((await json(missing)).error, "setting_not_found");
    const badGroup = await t.request("/api/admin/settings?group=9", { auth: admin });
    assert.equal(badGroup.status, 400);
    await badGroup.body?.cancel();
  });
});

Deno.test("settings: values are typed and normalised; the update returns the group", async () => {
  await withApp(async (t) => {
    const res = await put(t, 1, {
      max_upload_size: "250",
      max_upload_size_unit: "KB",
      default_use_proxy: "false",
      proxy_sign_expires: 3600,
    });
    assert.equal(res.status, 200);
    const list = (await json(res)).data as unknown as { key: string; value: unknown }[];
    assert.deepEqual(list.find((e) => e.key === "max_upload_size")?.value, 250);
    assert.deepEqual((await values(t, 1)).default_use_proxy, false);

    const ext = await put(t, 2, { preview_text_types: " TXT, .md;LOG  txt ,c++ " });
    assert.equal(ext.status, 200);
    assert.equal((await values(t, 2)).preview_text_types, "txt, md, log, c++");

    const before = (await json(await t.request("/api/public/site-config"))).data;
    assert.equal(before.site_source_url, "", "no source link by default");
    const site = await put(t, 4, {
      site_title: "  My Cubby  ",
      site_favicon_url: "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
      site_source_url: " https://git.example.com/me/cubby ",
    });
    assert.equal(site.status, 200);
    const v4 = await values(t, 4);
    assert.equal(v4.site_title, "My Cubby");
    assert.equal(v4.site_source_url, "https://git.example.com/me/cubby");
    const pub = (await json(await t.request("/api/public/site-config"))).data;
    assert.equal(pub.site_source_url, "https://git.example.com/me/cubby");
    assert.match(String(pub.site_updated_at), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual((pub.preview_types as unknown as Record<string, string[]>).text, [
      "txt",
      "md",
      "log",
      "c++",
    ]);
  });
});

Deno.test("settings: every failing key is reported and nothing of the group is written", async () => {
  await withApp(async (t) => {
    const res = await put(t, 1, {
      max_upload_size: 0,
      max_upload_size_unit: "TB",
      default_use_proxy: "maybe",
      file_overwrite_mode: "rename", // valid, but must not be written
      proxy_sign_expires: 1.5,
      site_title: "wrong group",
      no_such_key: 1,
    });
    assert.equal(res.status, 400);
    const body = await json(res);
    assert.equal(body.error, "settings_invalid");
    assert.deepEqual(body.data.fields, {
      max_upload_size: "setting_integer_invalid",
      max_upload_size_unit: "setting_option_invalid",
      default_use_proxy: "setting_boolean_invalid",
      proxy_sign_expires: "setting_integer_invalid",
      site_title: "setting_unknown",
      no_such_key: "setting_unknown",
    });
    assert.deepEqual((body.data.params as Record<string, unknown>).max_upload_size, {
      min: 1,
      max: 1_048_576,
    });
    assert.match(body.message, /max_upload_size, max_upload_size_unit/);
    assert.equal((await values(t, 1)).file_overwrite_mode, "overwrite", "atomic: nothing written");

    const cases: [number, Record<string, unknown>, string, string][] = [
      [4, { site_favicon_url: "javascript:alert(1)" }, "site_favicon_url", "setting_url_invalid"],
      [
        4,
        { site_favicon_url: "ftp://example.com/x.ico" },
        "site_favicon_url",
        "setting_url_invalid",
      ],
      [4, { site_source_url: "javascript:alert(1)" }, "site_source_url", "setting_link_invalid"],
      [4, { site_source_url: "data:text/html,x" }, "site_source_url", "setting_link_invalid"],
      [4, { site_source_url: "ftp://example.com/repo" }, "site_source_url", "setting_link_invalid"],
      [4, { site_source_url: "example.com/repo" }, "site_source_url", "setting_link_invalid"],
      [4, { site_source_url: "https://" }, "site_source_url", "setting_link_invalid"],
      [4, { site_title: "x".repeat(101) }, "site_title", "setting_too_long"],
      [4, { site_title: "a\nb" }, "site_title", "setting_text_invalid"],
      [4, { site_footer_markdown: 42 }, "site_footer_markdown", "setting_text_invalid"],
      [4, { site_updated_at: "2020-01-01T00:00:00Z" }, "site_updated_at", "setting_read_only"],
      [
        2,
        { preview_image_types: "png, <svg>" },
        "preview_image_types",
        "setting_extension_invalid",
      ],
      [3, { webdav_upload_mode: "chunked" }, "webdav_upload_mode", "setting_option_invalid"],
    ];
    for (const [group, input, key, code] of cases) {
      const r = await put(t, group, input);
      assert.equal(r.status, 400, JSON.stringify(input));
      assert.deepEqual((await json(r)).data.fields, { [key]: code });
    }
    assert.equal((await values(t, 4)).site_title, "Cubby");

    const noGroup = await put(t, 7, { a: 1 });
    assert.equal(noGroup.status, 404);
    assert.equal((await json(noGroup)).error, "settings_group_not_found");
    const notObject = await put(t, 1, [1, 2]);
    assert.equal(notObject.status, 400);
    assert.equal((await json(notObject)).error, "validation_failed");
    const badJson = await t.request("/api/admin/settings/group/1", {
      method: "PUT",
      auth: await t.adminAuth(),
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    assert.equal(badJson.status, 400);
    assert.equal((await json(badJson)).error, "invalid_json");
  });
});

Deno.test("settings: validate=false stores unchecked values; readers fall back to defaults", async () => {
  await withApp(async (t) => {
    const res = await put(
      t,
      1,
      { max_upload_size: -5, max_upload_size_unit: "TB" },
      "?validate=false",
    );
    assert.equal(res.status, 200);
    const v1 = await values(t, 1);
    assert.equal(v1.max_upload_size, -5);
    assert.equal(v1.max_upload_size_unit, "TB");
    const max = (await json(await t.request("/api/system/max-upload-size"))).data;
    assert.deepEqual([max.value, max.unit, max.bytes], [100, "MB", 100 * 1024 * 1024]);

    // Unknown, foreign, read-only keys and non-scalar values are refused all the same.
    const refused = await put(
      t,
      1,
      { no_such_key: 1, site_title: "x", proxy_sign_all: { a: 1 } },
      "?validate=false",
    );
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys((await json(refused)).data.fields as object).sort(), [
      "no_such_key",
      "proxy_sign_all",
      "site_title",
    ]);
    const ro = await put(t, 4, { site_updated_at: "x" }, "?validate=false");
    assert.equal(ro.status, 400);
    await ro.body?.cancel();
  });
});

Deno.test("settings apply at once: upload limit, default use-proxy for new shares", async () => {
  await withApp(async (t) => {
    assert.equal((await put(t, 1, { max_upload_size: 2, max_upload_size_unit: "KB" })).status, 200);
    const max = (await json(await t.request("/api/system/max-upload-size"))).data;
    assert.deepEqual([max.value, max.unit, max.bytes], [2, "KB", 2048]);

    const admin = await t.adminAuth();
    const upload = (name: string, bytes: number, query = "") =>
      t.request(`/api/upload-direct/${name}${query}`, {
        method: "PUT",
        auth: admin,
        body: new Uint8Array(bytes),
      });
    const tooBig = await upload("big.bin", 3000);
    assert.equal(tooBig.status, 413);
    await tooBig.body?.cancel();

    const proxied = await upload("a.bin", 10);
    assert.equal(proxied.status, 201);
    assert.equal((await json(proxied)).data.use_proxy, true);
    assert.equal((await put(t, 1, { default_use_proxy: false })).status, 200);
    const direct = await upload("b.bin", 10);
    assert.equal((await json(direct)).data.use_proxy, false);
    const chosen = await upload("c.bin", 10, "?use_proxy=true");
    assert.equal((await json(chosen)).data.use_proxy, true, "an explicit choice wins");
  });
});

Deno.test("settings: another instance on the same KV follows a change, well within the TTL", async () => {
  await withApp(async (t) => {
    await using other = await createPeerApp(t);
    assert.equal(await other.services.settings.getTitle(), "Cubby"); // now cached there
    assert.equal((await put(t, 4, { site_title: "Shared" })).status, 200);
    assert.equal(await t.services.settings.getTitle(), "Shared", "the writer sees it at once");
    // The other instance drops its copy when the settings epoch moves (a KV watch), long
    // before its cache's TTL (CACHE_TTL_MS) would have.
    const deadline = Date.now() + CACHE_TTL_MS * 0.75;
    while (await other.services.settings.getTitle() !== "Shared") {
      assert.ok(Date.now() < deadline, "the change reached the other instance before the TTL");
      await new Promise((r) => setTimeout(r, 10));
    }
  });
});

/** The server-rendered document of a path, with its embedded data. */
async function page(t: TestApp, path: string) {
  const res = await t.request(path, { lang: "en-US" });
  const doc = await res.text();
  const m = doc.match(/<script id="__cubby_data" type="application\/json">([\s\S]*?)<\/script>/);
  assert.ok(m, "the document embeds its data");
  return {
    status: res.status,
    doc,
    csp: res.headers.get("content-security-policy") ?? "",
    data: JSON.parse(m[1]) as Record<string, Record<string, unknown>>,
  };
}

Deno.test("SSR: a changed site title, favicon, footer, announcement and custom code apply to share pages", async () => {
  await withApp(async (t) => {
    const { slug } = await sharePaste(t, { content: "hello" });

    const before = await page(t, `/paste/${slug}`);
    assert.match(before.doc, /<title>Text share - Cubby<\/title>/);
    assert.match(before.doc, /<link rel="icon" href="\/favicon.svg">/);
    assert.match(before.doc, /Powered by Cubby/);

    const res = await put(t, 4, {
      site_title: "Acme <Drop>",
      site_favicon_url: "https://cdn.example.com/icon.png",
      site_footer_markdown: "**Acme** footer <script>alert(1)</script> [x](javascript:alert(1))",
      site_announcement_enabled: true,
      site_announcement_content: "Maintenance *tonight*",
      site_custom_head: '<meta name="x-custom" content="1"><script>window.headRan=1</script>',
      site_custom_body: '<script src="https://stats.example.com/a.js"></script>',
    });
    assert.equal(res.status, 200);

    const after = await page(t, `/paste/${slug}`);
    assert.equal(after.status, 200);
    assert.match(after.doc, /<title>Text share - Acme &lt;Drop&gt;<\/title>/);
    assert.match(after.doc, /<link rel="icon" href="https:\/\/cdn.example.com\/icon.png">/);
    // The footer is rendered on the server with the shared sanitiser.
    assert.match(after.doc, /<strong>Acme<\/strong> footer/);
    assert.doesNotMatch(after.doc, /alert\(1\)<\/script>/);
    assert.doesNotMatch(after.doc, /href="javascript:/);
    assert.doesNotMatch(after.doc, /Powered by Cubby/);
    const site = after.data.site;
    assert.equal(site.title, "Acme <Drop>");
    assert.equal(site.announcementEnabled, true);
    assert.match(String(after.data.siteHtml.announcement), /<em>tonight<\/em>/);
    // Custom head and body are inserted as configured, and their scripts carry the nonce.
    const nonce = after.csp.match(/'nonce-([^']+)'/)![1];
    assert.match(after.doc, /<meta name="x-custom" content="1">/);
    assert.ok(after.doc.includes(`<script nonce="${nonce}">window.headRan=1</script>`));
    assert.ok(
      after.doc.includes(
        `<script nonce="${nonce}" src="https://stats.example.com/a.js"></script>\n</body>`,
      ),
    );

    // Pages the browser renders get the same document settings.
    const shell = await page(t, "/admin/settings/site");
    assert.match(shell.doc, /<title>Site settings - Acme &lt;Drop&gt;<\/title>/);
    assert.match(shell.doc, /<meta name="x-custom" content="1">/);
  });
});

Deno.test("settings: an over-long extension is refused for its length, not for commas", async () => {
  await withApp(async (t) => {
    const cases: [string, string, string][] = [
      [
        "a".repeat(4000),
        "setting_extension_too_long",
        `An extension has at most 32 characters; "${"a".repeat(24)}…" has 4000`,
      ],
      [
        "txt, " + "b".repeat(33),
        "setting_extension_too_long",
        `An extension has at most 32 characters; "${"b".repeat(24)}…" has 33`,
      ],
      ["a".repeat(5000), "setting_too_long", "At most 4000 characters (this has 5000)"],
      [
        "png, <svg>",
        "setting_extension_invalid",
        '"<svg>" is not an extension: use only letters, digits, underscores, plus signs and hyphens',
      ],
    ];
    for (const [value, code, message] of cases) {
      const res = await t.request("/api/admin/settings/group/2", {
        method: "PUT",
        auth: await t.adminAuth(),
        lang: "en-US",
        json: { preview_text_types: value },
      });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.data.fields.preview_text_types, code);
      const { t: tr } = createI18n("en-US");
      assert.equal(tr(`errors.${code}`, body.data.params.preview_text_types), message);
    }
  });
});
