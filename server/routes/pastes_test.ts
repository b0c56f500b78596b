import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { MAX_PASTE_BYTES } from "../../shared/constants.ts";

type Body = { code: number; success: boolean; error?: string; data: Record<string, unknown> };

async function call(
  t: TestApp,
  method: string,
  path: string,
  opts: { auth?: string; json?: unknown; body?: string } = {},
): Promise<{ status: number; body: Body; res: Response }> {
  const res = await t.request(path, {
    method,
    auth: opts.auth,
    json: opts.json,
    body: opts.body,
    headers: opts.body !== undefined ? { "content-type": "application/json" } : undefined,
  });
  const text = await res.text();
  let body: Body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { code: res.status, success: false, data: { text } };
  }
  return { status: res.status, body, res };
}

/** Creates a paste and returns its view; fails the test on error. */
async function create(t: TestApp, auth: string, json: Record<string, unknown>) {
  const r = await call(t, "POST", "/api/paste", { auth, json });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.data as {
    id: string;
    slug: string;
    content: string;
    views: number;
    created_by: string;
    url: string;
    can_manage: boolean;
  };
}

async function withApp(fn: (t: TestApp) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t);
}

/** Counts the chunk keys in KV (all pastes). */
async function chunkKeyCount(t: TestApp): Promise<number> {
  let n = 0;
  for await (const _ of t.kv.list({ prefix: ["paste_chunks"] })) n++;
  return n;
}

Deno.test("POST /api/paste creates a paste with a random slug and returns its view", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const r = await call(t, "POST", "/api/paste", {
      auth: admin,
      json: { content: "# hello", remark: "note", max_views: 0, expires_at: null },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.code, 201);
    assert.equal(r.body.success, true);
    const p = r.body.data;
    assert.match(p.slug as string, /^[0-9A-Za-z]{6}$/);
    assert.match(p.id as string, /^[0-9A-Z]{26}$/);
    assert.equal(p.url, `/paste/${p.slug}`);
    assert.equal(p.content, "# hello");
    assert.equal(p.remark, "note");
    assert.equal(p.has_password, false);
    assert.equal(p.created_by, "admin");
    assert.equal(p.can_manage, true);
    assert.equal(p.views, 0);
    assert.equal(p.max_views, 0);
    assert.equal(p.expires_at, null);
    assert.ok(!JSON.stringify(r.body).includes("password_hash"));
    assert.ok(!Number.isNaN(Date.parse(p.created_at as string)));

    const key = await t.createKey({ text: true });
    const own = await create(t, key.auth, { content: "by key", slug: "by-key_1", password: "pw" });
    assert.equal(own.slug, "by-key_1");
    assert.equal(own.created_by, `apikey:${key.id}`);
    assert.equal((own as unknown as { has_password: boolean }).has_password, true);
    const opened = await call(t, "GET", "/api/paste/by-key_1", { auth: key.auth });
    assert.equal(opened.status, 403);
  });
});

Deno.test("POST /api/paste validation answers 400 with a specific code", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const future = new Date(Date.now() + 3600_000).toISOString();
    const cases: [string, unknown, string][] = [
      ["missing content", {}, "content_empty"],
      ["empty content", { content: "" }, "content_empty"],
      ["blank content", { content: " \n\t " }, "content_empty"],
      ["null content", { content: null }, "content_empty"],
      ["number content", { content: 123 }, "validation_failed"],
      ["slug with space", { content: "x", slug: "a b" }, "slug_invalid"],
      ["slug with slash", { content: "x", slug: "a/b" }, "slug_invalid"],
      ["slug too long", { content: "x", slug: "a".repeat(51) }, "slug_invalid"],
      ["slug number", { content: "x", slug: 5 }, "slug_invalid"],
      ["reserved slug", { content: "x", slug: "API" }, "slug_reserved"],
      ["reserved slug 2", { content: "x", slug: "admin" }, "slug_reserved"],
      ["negative max views", { content: "x", max_views: -1 }, "max_views_invalid"],
      ["fractional max views", { content: "x", max_views: 1.5 }, "max_views_invalid"],
      ["non-numeric max views", { content: "x", max_views: "three" }, "max_views_invalid"],
      ["bad expiry", { content: "x", expires_at: "tomorrow" }, "expires_at_invalid"],
      ["numeric expiry", { content: "x", expires_at: 12345 }, "expires_at_invalid"],
      ["past expiry", { content: "x", expires_at: "2020-01-01T00:00:00Z" }, "expires_at_invalid"],
      ["long remark", { content: "x", remark: "r".repeat(1001) }, "remark_too_long"],
      ["number remark", { content: "x", remark: 5 }, "validation_failed"],
      ["number password", { content: "x", password: 5, expires_at: future }, "validation_failed"],
      ["array body", [], "validation_failed"],
      ["string body", "hello", "validation_failed"],
      ["null body", null, "validation_failed"],
    ];
    for (const [name, json, error] of cases) {
      const r = await call(t, "POST", "/api/paste", { auth: admin, json });
      assert.equal(r.status, 400, name);
      assert.equal(r.body.error, error, `${name}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
    }
    const bad = await call(t, "POST", "/api/paste", { auth: admin, body: "{not json" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "invalid_json");

    const tooBig = await call(t, "POST", "/api/paste", {
      auth: admin,
      json: { content: "a".repeat(MAX_PASTE_BYTES + 1) },
    });
    assert.equal(tooBig.status, 400);
    assert.equal(tooBig.body.error, "content_too_large");
    // 3.5 M three-byte characters: under 10 M UTF-16 units, over 10 MB of UTF-8.
    const wide = await call(t, "POST", "/api/paste", {
      auth: admin,
      json: { content: "中".repeat(3_500_000) },
    });
    assert.equal(wide.status, 400);
    assert.equal(wide.body.error, "content_too_large");
    const huge = await call(t, "POST", "/api/paste", {
      auth: admin,
      body: JSON.stringify({ content: "a".repeat(3 * MAX_PASTE_BYTES + 10) }),
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error, "payload_too_large");
    assert.equal(await chunkKeyCount(t), 0, "no chunks left behind by refused requests");
  });
});

Deno.test("custom slug conflicts answer 409 slug_taken and leave no orphan chunks", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    await create(t, admin, { content: "first", slug: "mine" });
    const before = await chunkKeyCount(t);
    const r = await call(t, "POST", "/api/paste", {
      auth: admin,
      json: { content: "second", slug: "mine" },
    });
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "slug_taken");
    assert.equal(await chunkKeyCount(t), before);
    // Slugs are case-sensitive: "Mine" is another share.
    await create(t, admin, { content: "third", slug: "Mine" });
  });
});

Deno.test("GET /api/paste/:slug opens a paste and counts views until max_views", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const p = await create(t, admin, { content: "limited", max_views: 2, remark: "r" });
    const first = await call(t, "GET", `/api/paste/${p.slug}`);
    assert.equal(first.status, 200);
    assert.equal(first.body.data.content, "limited");
    assert.equal(first.body.data.views, 1);
    assert.equal(first.body.data.can_manage, false);
    // The owner's open is not counted (the creator can check a share without using it up).
    const own = await call(t, "GET", `/api/paste/${p.slug}`, { auth: admin });
    assert.equal(own.body.data.views, 1);
    assert.equal(own.body.data.can_manage, true);
    assert.equal(own.body.data.own_view, true);
    const second = await call(t, "GET", `/api/paste/${p.slug}`);
    assert.equal(second.body.data.views, 2);
    assert.equal(second.body.data.own_view, false);
    const third = await call(t, "GET", `/api/paste/${p.slug}`);
    assert.equal(third.status, 410);
    assert.equal(third.body.error, "paste_expired");
    const raw = await t.request(`/api/raw/${p.slug}`);
    assert.equal(raw.status, 410);

    const missing = await call(t, "GET", "/api/paste/nope42");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "paste_not_found");
    const long = "a".repeat(3000);
    for (const path of [`/api/paste/${long}`, `/api/pastes/${long}`, "/api/paste/%E4%B8%AD"]) {
      const r = await call(t, "GET", path, { auth: admin });
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error, "paste_not_found", path);
    }
    assert.equal((await t.request(`/api/raw/${long}`)).status, 404);

    const unlimited = await create(t, admin, { content: "free" });
    for (let i = 1; i <= 3; i++) {
      const r = await call(t, "GET", `/api/paste/${unlimited.slug}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.data.views, i);
    }
  });
});

Deno.test("password flow: prompt, wrong password, unlock, raw, and no lockout after failures", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const p = await create(t, admin, {
      content: "secret text",
      password: "open sesame",
      remark: "rm",
    });

    const locked = await call(t, "GET", `/api/paste/${p.slug}`);
    assert.equal(locked.status, 403);
    assert.equal(locked.body.error, "password_required");
    // The remark waits for the password, as on file shares.
    assert.deepEqual(locked.body.data, { slug: p.slug, has_password: true });
    assert.ok(!JSON.stringify(locked.body).includes("secret text"));

    const wrong = await call(t, "POST", `/api/paste/${p.slug}`, { json: { password: "nope" } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, "wrong_password");
    const missingPw = await call(t, "POST", `/api/paste/${p.slug}`, { json: {} });
    assert.equal(missingPw.status, 400);
    const badJson = await call(t, "POST", `/api/paste/${p.slug}`, { body: "{" });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.body.error, "invalid_json");

    const right = await call(t, "POST", `/api/paste/${p.slug}`, {
      json: { password: "open sesame" },
    });
    assert.equal(right.status, 200);
    assert.equal(right.body.data.content, "secret text");
    assert.equal(right.body.data.views, 1);
    assert.equal(right.body.data.has_password, true);

    const rawNoPw = await t.request(`/api/raw/${p.slug}`);
    assert.equal(rawNoPw.status, 403);
    assert.match(rawNoPw.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal(rawNoPw.headers.get("x-error-code"), "password_required");
    const rawWrong = await t.request(`/api/raw/${p.slug}?password=x`);
    assert.equal(rawWrong.status, 401);
    assert.equal(rawWrong.headers.get("x-error-code"), "wrong_password");
    const rawOk = await t.request(
      `/api/raw/${p.slug}?password=${encodeURIComponent("open sesame")}`,
    );
    assert.equal(rawOk.status, 200);
    assert.equal(await rawOk.text(), "secret text");

    // 10 free failures per client and slug; after them attempts are slowed, never locked:
    // the right password still opens the share (after a hold of about a second).
    for (let i = 0; i < 10; i++) {
      await call(t, "POST", `/api/paste/${p.slug}`, { json: { password: `bad${i}` } });
    }
    const slowed = await call(t, "POST", `/api/paste/${p.slug}`, {
      json: { password: "open sesame" },
    });
    assert.equal(slowed.status, 200);
    assert.equal(slowed.body.data.content, "secret text");

    // Another share is not affected; a share without a password opens through POST too.
    const other = await create(t, admin, { content: "plain" });
    const opened = await call(t, "POST", `/api/paste/${other.slug}`, { json: { password: "x" } });
    assert.equal(opened.status, 200);
    assert.equal(opened.body.data.content, "plain");
  });
});

Deno.test("a protected paste's raw link carries a view token, not the password, and counts once", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const p = await create(t, admin, {
      content: "burn after reading",
      password: "open sesame",
      max_views: 1,
      remark: "for Ann",
    });
    const page = await t.request(`/paste/${p.slug}`);
    const html = await page.text();
    assert.equal(page.status, 200, html);
    assert.ok(
      html.includes(p.slug) && !html.includes("for Ann"),
      "the remark waits for the password",
    );

    const opened = await call(t, "POST", `/api/paste/${p.slug}`, {
      json: { password: "open sesame" },
    });
    assert.equal(opened.status, 200);
    assert.equal(opened.body.data.remark, "for Ann");
    const rawUrl = String(opened.body.data.raw_url);
    assert.match(rawUrl, new RegExp(`^/api/raw/${p.slug}\\?t=`));
    assert.ok(!rawUrl.includes("password") && !rawUrl.includes("sesame"), rawUrl);
    // The 1-view paste's single view was the page's; its raw text follows within that view.
    const raw = await t.request(rawUrl);
    assert.equal(raw.status, 200);
    assert.equal(await raw.text(), "burn after reading");
    const again = await t.request(`/api/raw/${p.slug}`);
    assert.equal(again.status, 410, "no view left for anyone else");
    await again.body?.cancel();
    // A made-up token is no way in.
    const forged = await t.request(`/api/raw/${p.slug}?t=${Date.now() + 60_000}.forged`);
    assert.equal(forged.status, 410);
    await forged.body?.cancel();

    // An open paste needs no token: its raw link is the plain path.
    const open = await create(t, admin, { content: "open" });
    const view = await call(t, "GET", `/api/paste/${open.slug}`);
    assert.equal(view.body.data.raw_url, `/api/raw/${open.slug}`);
  });
});

Deno.test("GET /api/raw/:slug serves text/plain user content with sandbox headers", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const html = "<script>alert(1)</script>\n中文 😀";
    const p = await create(t, admin, { content: html, max_views: 3 });
    const res = await t.request(`/api/raw/${p.slug}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(res.headers.get("content-security-policy"), "sandbox");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(await res.text(), html);
    const view = await call(t, "GET", `/api/pastes/${p.id}`, { auth: admin });
    assert.equal(view.body.data.views, 1, "raw counts a view");

    const missing = await t.request("/api/raw/missing");
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal(await missing.text(), "分享不存在");
  });
});

Deno.test("GET /api/pastes lists, searches and pages; keys see only their own", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const keyA = await t.createKey({ text: true });
    const keyB = await t.createKey({ text: true });
    for (let i = 0; i < 12; i++) {
      await create(t, admin, { content: `admin ${i} ` + "x".repeat(500), remark: `Remark ${i}` });
    }
    await create(t, keyA.auth, { content: "from A", slug: "alpha-one" });
    await create(t, keyB.auth, { content: "from B", slug: "beta-one" });

    const all = await call(t, "GET", "/api/pastes", { auth: admin });
    assert.equal(all.status, 200);
    const data = all.body.data as { items: Record<string, unknown>[]; total: number };
    assert.equal(data.total, 14);
    assert.equal(data.items.length, 10, "default limit is 10");
    assert.deepEqual([all.body.data.page, all.body.data.limit, all.body.data.offset], [1, 10, 0]);
    assert.equal(data.items[0].slug, "beta-one", "newest first");
    for (const item of data.items) {
      assert.equal("content" in item, false);
      assert.ok((item.preview as string).length <= 200);
      assert.ok(!JSON.stringify(item).includes("password_hash"));
    }

    const page2 = await call(t, "GET", "/api/pastes?page=2&limit=10", { auth: admin });
    assert.equal((page2.body.data.items as unknown[]).length, 4);
    assert.equal(page2.body.data.offset, 10);
    const byOffset = await call(t, "GET", "/api/pastes?offset=12&limit=5", { auth: admin });
    assert.equal((byOffset.body.data.items as unknown[]).length, 2);

    const search = await call(t, "GET", "/api/pastes?search=remark%2011", { auth: admin });
    assert.equal(search.body.data.total, 1);
    const bySlug = await call(t, "GET", "/api/pastes?search=ALPHA", { auth: admin });
    assert.equal(bySlug.body.data.total, 1);

    const mine = await call(t, "GET", "/api/pastes", { auth: keyA.auth });
    assert.equal(mine.body.data.total, 1);
    const first = (mine.body.data.items as Record<string, unknown>[])[0];
    assert.equal(first.slug, "alpha-one");
    assert.equal(first.can_manage, true);

    for (const q of ["limit=101", "limit=0", "page=0", "offset=-1", "limit=abc"]) {
      const r = await call(t, "GET", `/api/pastes?${q}`, { auth: admin });
      assert.equal(r.status, 400, q);
      assert.equal(r.body.error, "validation_failed", q);
    }
  });
});

Deno.test("GET and PUT /api/pastes/:id: creator or admin; edits keep indexes consistent", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const key = await t.createKey({ text: true });
    const other = await t.createKey({ text: true });
    const p = await create(t, key.auth, { content: "v1", slug: "edit-me", max_views: 2 });
    await create(t, admin, { content: "taken", slug: "taken" });

    const got = await call(t, "GET", `/api/pastes/${p.id}`, { auth: key.auth });
    assert.equal(got.status, 200);
    assert.equal(got.body.data.content, "v1");
    assert.equal(got.body.data.views, 0, "management reads count no view");
    assert.equal(
      (await call(t, "GET", `/api/pastes/${p.id}`, { auth: other.auth })).body.error,
      "not_creator",
    );
    assert.equal((await call(t, "GET", "/api/pastes/01NOPE", { auth: admin })).status, 404);

    await call(t, "GET", `/api/paste/edit-me`);
    await call(t, "GET", `/api/paste/edit-me`);
    assert.equal((await call(t, "GET", `/api/paste/edit-me`)).status, 410);

    const conflict = await call(t, "PUT", `/api/pastes/${p.id}`, {
      auth: key.auth,
      json: { slug: "taken" },
    });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.error, "slug_taken");

    const future = new Date(Date.now() + 3600_000).toISOString();
    const put = await call(t, "PUT", `/api/pastes/${p.id}`, {
      auth: key.auth,
      json: {
        content: "v2",
        slug: "edited",
        remark: "now",
        password: "pw",
        expires_at: future,
        max_views: 3,
      },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.data.content, "v2");
    assert.equal(put.body.data.slug, "edited");
    assert.equal(put.body.data.url, "/paste/edited");
    assert.equal(put.body.data.has_password, true);
    assert.equal(put.body.data.expires_at, future);
    assert.equal(put.body.data.views, 0, "editing max views resets the counter");
    assert.equal((await call(t, "GET", "/api/paste/edit-me")).status, 404, "old slug freed");
    await create(t, admin, { content: "reuse", slug: "edit-me" });
    const unlocked = await call(t, "POST", "/api/paste/edited", { json: { password: "pw" } });
    assert.equal(unlocked.body.data.content, "v2");

    const keep = await call(t, "PUT", `/api/pastes/${p.id}`, { auth: admin, json: { remark: "" } });
    assert.equal(keep.body.data.has_password, true, "absent password keeps it");
    assert.equal(keep.body.data.remark, null);
    assert.equal(keep.body.data.views, 1, "edits without max_views keep the counter");
    const cleared = await call(t, "PUT", `/api/pastes/${p.id}`, {
      auth: admin,
      json: { password: null, expires_at: null },
    });
    assert.equal(cleared.body.data.has_password, false);
    assert.equal(cleared.body.data.expires_at, null);
    assert.equal((await call(t, "GET", "/api/paste/edited")).status, 200);

    const bad: [unknown, string][] = [
      [{ content: "" }, "content_empty"],
      [{ slug: "no way" }, "slug_invalid"],
      [{ slug: "paste" }, "slug_reserved"],
      [{ max_views: -2 }, "max_views_invalid"],
      [{ expires_at: "2001-01-01T00:00:00Z" }, "expires_at_invalid"],
      [{ password: 7 }, "validation_failed"],
    ];
    for (const [json, error] of bad) {
      const r = await call(t, "PUT", `/api/pastes/${p.id}`, { auth: admin, json });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(r.body.error, error, JSON.stringify(json));
    }
    assert.equal(
      (await call(t, "PUT", `/api/pastes/${p.id}`, { auth: admin, body: "[" })).body
        .error,
      "invalid_json",
    );
    const forbidden = await call(t, "PUT", `/api/pastes/${p.id}`, {
      auth: other.auth,
      json: { remark: "hijack" },
    });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error, "not_creator");
    const missing = await call(t, "PUT", "/api/pastes/01MISSING", { auth: admin, json: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "paste_not_found");
  });
});

Deno.test("batch-delete (DELETE or POST) removes what the caller manages and skips the rest", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const key = await t.createKey({ text: true });
    const mine = await create(t, key.auth, { content: "mine" });
    const theirs = await create(t, admin, { content: "admin's" });
    const r = await call(t, "DELETE", "/api/pastes/batch-delete", {
      auth: key.auth,
      json: { ids: [mine.id, theirs.id, "01UNKNOWN"] },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.deleted, 1);
    assert.equal(r.body.data.skipped, 2);
    assert.deepEqual(
      new Set(r.body.data.skipped_ids as string[]),
      new Set([theirs.id, "01UNKNOWN"]),
    );
    assert.equal((await call(t, "GET", `/api/paste/${mine.slug}`)).status, 404);
    assert.equal((await call(t, "GET", `/api/paste/${theirs.slug}`)).status, 200);

    const viaPost = await call(t, "POST", "/api/pastes/batch-delete", {
      auth: admin,
      json: { ids: [theirs.id] },
    });
    assert.equal(viaPost.body.data.deleted, 1);
    assert.equal(await chunkKeyCount(t), 0);
    let keys = 0;
    for await (const _ of t.kv.list({ prefix: ["pastes_by_slug"] })) keys++;
    for await (const _ of t.kv.list({ prefix: ["pastes_by_creator"] })) keys++;
    for await (const _ of t.kv.list({ prefix: ["paste_views"] })) keys++;
    assert.equal(keys, 0, "indexes and counters are deleted with the paste");

    const bad: unknown[] = [{}, { ids: [] }, { ids: "x" }, { ids: [1] }, {
      ids: Array.from({ length: 1001 }, (_, i) => `id${i}`),
    }];
    for (const json of bad) {
      const res = await call(t, "DELETE", "/api/pastes/batch-delete", { auth: admin, json });
      assert.equal(res.status, 400, JSON.stringify(json).slice(0, 40));
    }
  });
});

Deno.test("clear-expired deletes expired and used-up pastes the caller manages", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const key = await t.createKey({ text: true });
    const usedUp = await create(t, key.auth, { content: "once", max_views: 1 });
    await call(t, "GET", `/api/paste/${usedUp.slug}`);
    const adminUsedUp = await create(t, admin, { content: "once", max_views: 1 });
    await call(t, "GET", `/api/paste/${adminUsedUp.slug}`);
    const alive = await create(t, key.auth, { content: "alive", max_views: 5 });

    const byKey = await call(t, "POST", "/api/pastes/clear-expired", {
      auth: key.auth,
      json: { clearExpired: true },
    });
    assert.equal(byKey.status, 200);
    assert.equal(byKey.body.data.deleted, 1);
    const byAdmin = await call(t, "POST", "/api/pastes/clear-expired", { auth: admin });
    assert.equal(byAdmin.body.data.deleted, 1);
    assert.equal((await call(t, "GET", `/api/paste/${alive.slug}`)).status, 200);
    const bad = await call(t, "POST", "/api/pastes/clear-expired", {
      auth: admin,
      json: { clearExpired: "yes" },
    });
    assert.equal(bad.status, 400);
  });
});

Deno.test("access table: role → route → status", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const text = await t.createKey({ text: true });
    const other = await t.createKey({ text: true });
    const fileOnly = await t.createKey({ file: true });
    const expired = await t.createKey({ text: true });
    const put = await call(t, "PUT", `/api/admin/api-keys/${expired.id}`, {
      auth: admin,
      json: { expires_at: "2020-01-01T00:00:00Z" },
    });
    assert.equal(put.status, 200);
    const roles: Record<string, string | undefined> = {
      anonymous: undefined,
      admin,
      text: text.auth,
      other: other.auth,
      fileOnly: fileOnly.auth,
      expired: expired.auth,
    };
    /** A fresh paste of the `text` key for each row, so mutations do not interfere. */
    const fresh = () => create(t, text.auth, { content: "row" });
    type Row = [
      string,
      (p: { id: string; slug: string }) => [string, string, unknown?],
      Record<string, number>,
    ];
    /** Expected statuses, one per role, in the order of `roles`. */
    const by = (...codes: number[]) =>
      Object.fromEntries(Object.keys(roles).map((role, i) => [role, codes[i]]));
    const rows: Row[] = [
      ["create", () => ["POST", "/api/paste", { content: "x" }], by(401, 201, 201, 201, 403, 401)],
      ["open", (p) => ["GET", `/api/paste/${p.slug}`], by(200, 200, 200, 200, 200, 200)],
      ["raw", (p) => ["GET", `/api/raw/${p.slug}`], by(200, 200, 200, 200, 200, 200)],
      ["list", () => ["GET", "/api/pastes"], by(401, 200, 200, 200, 403, 401)],
      ["get", (p) => ["GET", `/api/pastes/${p.id}`], by(401, 200, 200, 403, 403, 401)],
      [
        "put",
        (p) => ["PUT", `/api/pastes/${p.id}`, { remark: "r" }],
        by(401, 200, 200, 403, 403, 401),
      ],
      [
        "batch-delete",
        (p) => ["DELETE", "/api/pastes/batch-delete", { ids: [p.id] }],
        by(401, 200, 200, 200, 403, 401),
      ],
      [
        "clear-expired",
        () => ["POST", "/api/pastes/clear-expired", {}],
        by(401, 200, 200, 200, 403, 401),
      ],
    ];
    for (const [name, route, expected] of rows) {
      for (const [role, auth] of Object.entries(roles)) {
        const p = await fresh();
        const [method, path, json] = route(p);
        const r = await call(t, method, path, { auth, json });
        assert.equal(r.status, expected[role], `${name} as ${role}: ${JSON.stringify(r.body)}`);
        if (role === "expired") assert.equal(r.body.error ?? "api_key_invalid", "api_key_invalid");
        if (role === "fileOnly" && r.status === 403) {
          assert.equal(r.body.error, "api_key_permission_denied");
        }
        if (name === "batch-delete" && role === "other") {
          assert.equal(r.body.data.deleted, 0);
          assert.equal(r.body.data.skipped, 1);
        }
      }
    }
  });
});

Deno.test("200 concurrent opens of a 5-view paste: exactly 5 succeed (JSON and raw)", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    for (const kind of ["json", "raw"] as const) {
      const p = await create(t, admin, { content: `race ${kind}`, max_views: 5 });
      const path = kind === "json" ? `/api/paste/${p.slug}` : `/api/raw/${p.slug}`;
      const results = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const res = await t.request(path);
          const body = await res.text();
          return { status: res.status, body };
        }),
      );
      const ok = results.filter((r) => r.status === 200);
      const gone = results.filter((r) => r.status === 410);
      assert.equal(ok.length, 5, kind);
      assert.equal(gone.length, 195, kind);
      for (const r of ok) assert.ok(r.body.includes(`race ${kind}`));
      const views = ok.map((r) => kind === "json" ? JSON.parse(r.body).data.views : 0);
      if (kind === "json") assert.deepEqual(views.sort(), [1, 2, 3, 4, 5]);
      const meta = await call(t, "GET", `/api/pastes/${p.id}`, { auth: admin });
      assert.equal(meta.body.data.views, 5);
    }
  });
});

Deno.test("a 10 MB multi-byte paste round-trips byte-identical; updates drop old chunks", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const unit = "中文内容，混合 English 与 emoji 😀🎉👍🏽 以及符号 ©®™\n";
    const unitBytes = new TextEncoder().encode(unit).length;
    const content = unit.repeat(Math.floor(MAX_PASTE_BYTES / unitBytes));
    const bytes = new TextEncoder().encode(content);
    assert.ok(bytes.length <= MAX_PASTE_BYTES && bytes.length > MAX_PASTE_BYTES - unitBytes);

    const p = await create(t, admin, { content });
    assert.equal(p.content, content);
    const opened = await call(t, "GET", `/api/paste/${p.slug}`);
    assert.equal(opened.body.data.content, content);
    assert.equal(opened.body.data.content_size, bytes.length);
    const raw = await t.request(`/api/raw/${p.slug}`);
    assert.deepEqual(new Uint8Array(await raw.arrayBuffer()), bytes);
    const managed = await call(t, "GET", `/api/pastes/${p.id}`, { auth: admin });
    assert.equal(managed.body.data.content, content);

    const record = async () =>
      (await t.kv.get<{ content_id: string; content_chunks: number }>(["pastes", p.id]))
        .value!;
    const before = await record();
    assert.ok(before.content_chunks >= 170);
    assert.equal(await chunkKeyCount(t), before.content_chunks);

    const updated = content.replaceAll("😀", "🙂");
    const put = await call(t, "PUT", `/api/pastes/${p.id}`, {
      auth: admin,
      json: { content: updated },
    });
    assert.equal(put.status, 200);
    const after = await record();
    assert.notEqual(after.content_id, before.content_id);
    let oldChunks = 0;
    for await (const _ of t.kv.list({ prefix: ["paste_chunks", before.content_id] })) {
      oldChunks++;
    }
    assert.equal(oldChunks, 0, "old content chunks are deleted");
    assert.equal(await chunkKeyCount(t), after.content_chunks);
    const again = await t.request(`/api/raw/${p.slug}`);
    assert.deepEqual(new Uint8Array(await again.arrayBuffer()), new TextEncoder().encode(updated));
  });
});

Deno.test("a paste answers 410 once its expiry passes", async () => {
  await withApp(async (t) => {
    const admin = await t.adminAuth();
    const p = await create(t, admin, {
      content: "short-lived",
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    assert.equal((await call(t, "GET", `/api/paste/${p.slug}`)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const r = await call(t, "GET", `/api/paste/${p.slug}`);
    assert.equal(r.status, 410);
    assert.equal(r.body.error, "paste_expired");
    const raw = await t.request(`/api/raw/${p.slug}`);
    assert.equal(raw.status, 410);
    assert.equal(raw.headers.get("x-error-code"), "paste_expired");
    await raw.body?.cancel();
    const page = await t.request(`/paste/${p.slug}`);
    assert.equal(page.status, 410);
    await page.body?.cancel();
    const list = await call(t, "GET", "/api/pastes", { auth: admin });
    assert.equal((list.body.data.items as { is_expired: boolean }[])[0].is_expired, true);
  });
});
