/**
 * The access funnel (shares/access_funnel.ts) on every route a share's content leaves by:
 * a used-up share refuses them all with 410, a protected share without its password with
 * 403 `password_required` (never 401, which means "your credentials"), the view token of a counted open admits its own links without counting, and no route
 * hands out a fresh token without counting a view.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { shareFile, sharePaste } from "../../tests/helpers/shares.ts";

const PASSWORD = "open sesame";

/** Uploads a file share (options before the file) as the admin; returns its id and slug. */
async function shareReport(t: TestApp, fields: Record<string, string>, body = "file body") {
  const { id, slug } = await shareFile(t, body, "report.docx", fields);
  return { id, slug };
}

type Call = { name: string; path: string; method?: string; json?: unknown };

/** Every route that delivers a file share's content or links to it. */
function fileRoutes(slug: string, query = ""): Call[] {
  const q = query ? `?${query}` : "";
  return [
    { name: "info", path: `/api/public/files/${slug}` },
    {
      name: "verify",
      path: `/api/public/files/${slug}/verify`,
      method: "POST",
      json: { password: PASSWORD },
    },
    { name: "view", path: `/api/file-view/${slug}${q}` },
    { name: "view (HEAD)", path: `/api/file-view/${slug}${q}`, method: "HEAD" },
    { name: "download", path: `/api/file-download/${slug}${q}` },
    { name: "office preview", path: `/api/office-preview/${slug}${q}` },
  ];
}

/** Every route that delivers a paste's content. */
function pasteRoutes(slug: string): Call[] {
  return [
    { name: "open", path: `/api/paste/${slug}` },
    { name: "unlock", path: `/api/paste/${slug}`, method: "POST", json: { password: PASSWORD } },
    { name: "raw", path: `/api/raw/${slug}` },
  ];
}

async function call(t: TestApp, c: Call) {
  const res = await t.request(c.path, { method: c.method ?? "GET", json: c.json });
  const text = await res.text();
  return { status: res.status, text, code: res.headers.get("x-error-code") };
}

async function expectAll(t: TestApp, calls: Call[], status: number, label: string) {
  for (const c of calls) {
    const r = await call(t, c);
    assert.equal(r.status, status, `${label}: ${c.name} answered ${r.status} ${r.text}`);
    assert.ok(!r.text.includes("body"), `${label}: ${c.name} leaked the content`);
  }
}

Deno.test("a used-up file share refuses every byte route with 410, tokens aside", async () => {
  await using t = await createTestApp();
  const { slug } = await shareReport(t, { max_views: "1" });
  const open = await t.request(`/api/public/files/${slug}`);
  assert.equal(open.status, 200);
  const view = (await open.json()).data;
  const token = new URL(view.download_url, "http://x").searchParams.get("t")!;

  await expectAll(t, fileRoutes(slug), 410, "no token");
  await expectAll(t, fileRoutes(slug, "t=1.forged"), 410, "forged token");
  await expectAll(t, fileRoutes(slug, `password=${encodeURIComponent(PASSWORD)}`), 410, "pw");

  // The counted open's own links keep working, and Office links reuse that token (they
  // never outlive it), so they count nothing and extend nothing.
  for (let i = 0; i < 3; i++) {
    const dl = await t.request(view.download_url);
    assert.equal(dl.status, 200);
    assert.equal(await dl.text(), "file body");
    const office = await t.request(`/api/office-preview/${slug}?t=${encodeURIComponent(token)}`);
    assert.equal(office.status, 200);
    const links = (await office.json()).data;
    assert.equal(new URL(links.url).searchParams.get("t"), token);
    assert.ok(links.microsoft.includes(encodeURIComponent(links.url)));
  }
});

Deno.test("office-preview links count a view each: six on a 2-view share deliver 2", async () => {
  await using t = await createTestApp();
  const { slug } = await shareReport(t, { max_views: "2" });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await t.request(`/api/office-preview/${slug}`);
    statuses.push(res.status);
    if (res.status !== 200) {
      await res.body?.cancel();
      continue;
    }
    const url = new URL((await res.json()).data.url);
    const body = await t.request(url.pathname + url.search);
    assert.equal(await body.text(), "file body", "the viewer's link works");
  }
  assert.deepEqual(statuses, [200, 200, 410, 410, 410, 410]);
  assert.equal((await t.request(`/api/file-download/${slug}`)).status, 410);

  // Concurrently too: 60 office previews of a 5-view share admit exactly 5.
  const race = await shareReport(t, { max_views: "5" });
  const results = await Promise.all(
    Array.from({ length: 60 }, () => t.request(`/api/office-preview/${race.slug}`)),
  );
  const codes = results.map((r) => r.status);
  await Promise.all(results.map((r) => r.body?.cancel()));
  assert.equal(codes.filter((s) => s === 200).length, 5);
  assert.equal(codes.filter((s) => s === 410).length, 55);
});

Deno.test("a protected file share refuses every byte route without its password (403)", async () => {
  await using t = await createTestApp();
  const { slug } = await shareReport(t, { password: PASSWORD, max_views: "3" });
  const routes = fileRoutes(slug).filter((c) => c.name !== "verify");
  for (const c of routes) {
    const r = await call(t, c);
    assert.equal(r.status, 403, `${c.name}: ${r.status} ${r.text}`);
    const code = r.code ?? JSON.parse(r.text).error;
    assert.equal(code, "password_required", c.name);
    assert.ok(!r.text.includes("body"), c.name);
  }
  const wrong = await call(t, {
    name: "office",
    path: `/api/office-preview/${slug}?password=no`,
  });
  assert.deepEqual([wrong.status, JSON.parse(wrong.text).error], [401, "wrong_password"]);
  // With the password, an Office preview is a counted view like a download.
  const ok = await call(t, {
    name: "office",
    path: `/api/office-preview/${slug}?password=${encodeURIComponent(PASSWORD)}`,
  });
  assert.equal(ok.status, 200);
  const info = await t.request(`/api/public/files/${slug}/verify`, {
    method: "POST",
    json: { password: PASSWORD },
  });
  assert.equal((await info.json()).data.views, 2, "the office preview counted one view");
});

Deno.test("view tokens are bound to the share's password and view limit: editing them retires old links", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { id, slug } = await shareReport(t, { max_views: "3" });
  const first = (await (await t.request(`/api/public/files/${slug}`)).json()).data;
  const edit = async (json: Record<string, unknown>) => {
    const res = await t.request(`/api/files/${id}`, { method: "PUT", auth: admin, json });
    assert.equal(res.status, 200, await res.clone().text());
    await res.body?.cancel();
  };

  // A remark edit keeps the links working without counting.
  await edit({ remark: "cosmetic" });
  for (let i = 0; i < 4; i++) {
    const r = await t.request(first.download_url);
    assert.equal(r.status, 200);
    await r.body?.cancel();
  }
  // A new view limit (its counter starts again) retires the old token: each use counts.
  await edit({ max_views: 1 });
  const counted = await t.request(first.download_url);
  assert.equal(counted.status, 200);
  await counted.body?.cancel();
  assert.equal((await call(t, { name: "old link", path: first.download_url })).status, 410);

  // A new password retires tokens handed out before it, too.
  const other = await shareReport(t, {});
  const open = (await (await t.request(`/api/public/files/${other.slug}`)).json()).data;
  assert.equal(
    await t.statusOf("PUT", `/api/files/${other.id}`, admin, { password: PASSWORD }),
    200,
  );
  for (const path of [open.download_url, open.preview_url]) {
    const r = await call(t, { name: "old link", path });
    assert.equal(r.status, 403, `${path}: ${r.text}`);
  }
});

Deno.test("pastes: used up → 410 and protected without password → 403 on every route", async () => {
  await using t = await createTestApp();
  const { slug: used } = await sharePaste(t, { content: "paste body", max_views: 1 });
  assert.equal((await call(t, { name: "raw", path: `/api/raw/${used}` })).text, "paste body");
  await expectAll(t, pasteRoutes(used), 410, "used up");

  const { slug: locked } = await sharePaste(t, {
    content: "paste body",
    password: PASSWORD,
    max_views: 5,
  });
  for (const c of pasteRoutes(locked).filter((c) => c.name !== "unlock")) {
    const r = await call(t, c);
    assert.equal(r.status, 403, `${c.name}: ${r.status} ${r.text}`);
    assert.ok(!r.text.includes("body"), c.name);
  }
  const raw = await call(t, {
    name: "raw",
    path: `/api/raw/${locked}?password=${encodeURIComponent(PASSWORD)}`,
  });
  assert.deepEqual([raw.status, raw.text], [200, "paste body"]);
});
