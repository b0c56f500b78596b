import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { CACHE_EXPIRES_HEADER, CACHEABLE_HEADER } from "../../shared/pwa.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t);
}

async function createPaste(t: TestApp, json: Record<string, unknown>): Promise<string> {
  const res = await t.request("/api/paste", { method: "POST", auth: await t.adminAuth(), json });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data.slug;
}

async function uploadFile(t: TestApp, query: string): Promise<string> {
  const res = await t.request(`/api/upload-direct/a.txt?${query}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    body: "hello",
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data.slug;
}

/** The cacheable header of a reply (its body read and dropped). */
async function cacheable(t: TestApp, path: string, auth?: string) {
  const res = await t.request(path, { auth });
  await res.body?.cancel();
  assert.equal(res.status, 200, path);
  return {
    cacheable: res.headers.get(CACHEABLE_HEADER),
    expires: res.headers.get(CACHE_EXPIRES_HEADER),
  };
}

Deno.test("an open paste's page and API read may be cached, anonymously only", async () => {
  await withApp(async (t) => {
    const slug = await createPaste(t, { content: "open text" });
    assert.deepEqual(await cacheable(t, `/paste/${slug}`), { cacheable: "1", expires: null });
    assert.deepEqual(await cacheable(t, `/api/paste/${slug}`), { cacheable: "1", expires: null });
    const withKey = await cacheable(t, `/api/paste/${slug}`, await t.adminAuth());
    assert.equal(withKey.cacheable, null, "a credentialed read is never cacheable");
  });
});

Deno.test("an expiring open paste carries its expiry for the cache", async () => {
  await withApp(async (t) => {
    const expires = new Date(Date.now() + 3600_000).toISOString();
    const slug = await createPaste(t, { content: "soon gone", expires_at: expires });
    const page = await cacheable(t, `/paste/${slug}`);
    assert.equal(page.cacheable, "1");
    assert.equal(new Date(page.expires!).getTime(), new Date(expires).getTime());
  });
});

Deno.test("password-protected and view-limited pastes are never cacheable", async () => {
  await withApp(async (t) => {
    const locked = await createPaste(t, { content: "secret", password: "pw-123456" });
    const limited = await createPaste(t, { content: "twice", max_views: 2 });
    for (const slug of [locked, limited]) {
      assert.equal((await cacheable(t, `/paste/${slug}`)).cacheable, null, slug);
    }
    assert.equal((await cacheable(t, `/api/paste/${limited}`)).cacheable, null);
  });
});

Deno.test("file shares: open ones are cacheable, locked or limited ones are not", async () => {
  await withApp(async (t) => {
    const open = await uploadFile(t, "remark=open");
    const limited = await uploadFile(t, "max_views=3");
    const locked = await uploadFile(t, "password=pw-123456");
    assert.equal((await cacheable(t, `/file/${open}`)).cacheable, "1");
    assert.equal((await cacheable(t, `/api/public/files/${open}`)).cacheable, "1");
    assert.equal((await cacheable(t, `/file/${limited}`)).cacheable, null);
    assert.equal((await cacheable(t, `/api/public/files/${limited}`)).cacheable, null);
    assert.equal((await cacheable(t, `/file/${locked}`)).cacheable, null);
  });
});
