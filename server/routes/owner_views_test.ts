/**
 * Views by a share's owner (the admin, or the API key that created it) are not counted: the
 * creator can check a burn-after-reading share without burning it. Everyone else, another key
 * included, still gets exactly `max_views` deliveries.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { shareFile } from "../../tests/helpers/shares.ts";

async function createPaste(t: TestApp, auth: string, extra: Record<string, unknown> = {}) {
  const res = await t.request("/api/paste", {
    method: "POST",
    auth,
    json: { content: "burn after reading", max_views: 1, ...extra },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).data as { id: string; slug: string };
}

async function open(t: TestApp, path: string, auth?: string, json?: unknown) {
  const res = await t.request(path, { method: json ? "POST" : "GET", auth, json });
  const body = await res.json();
  return { status: res.status, data: body.data, error: body.error as string | undefined };
}

Deno.test("the admin opens a 1-view paste any number of times; the recipient still gets it", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { slug } = await createPaste(t, admin);
  for (let i = 0; i < 3; i++) {
    const r = await open(t, `/api/paste/${slug}`, admin);
    assert.equal(r.status, 200, `owner's open ${i + 1}`);
    assert.equal(r.data.content, "burn after reading");
    assert.equal(r.data.own_view, true);
    assert.equal(r.data.views, 0, "the owner's views are not counted");
    // The raw text the owner's page links to, and the raw route with the owner's header.
    assert.equal(await (await t.request(r.data.raw_url)).text(), "burn after reading");
    assert.equal((await t.request(`/api/raw/${slug}`, { auth: admin })).status, 200);
  }
  const recipient = await open(t, `/api/paste/${slug}`);
  assert.equal(recipient.status, 200, "the recipient's one view is still there");
  assert.equal(recipient.data.own_view, false);
  assert.equal(recipient.data.views, 1);
  assert.equal((await open(t, `/api/paste/${slug}`)).status, 410, "and then it is used up");
  assert.equal((await t.request(`/api/raw/${slug}`)).status, 410);
});

Deno.test("a key's own paste is not counted for it, but another key's open counts", async () => {
  await using t = await createTestApp();
  const creator = await t.createKey({ text: true });
  const other = await t.createKey({ text: true });
  const { slug } = await createPaste(t, creator.auth, { max_views: 2, password: "pw-1234" });
  for (let i = 0; i < 2; i++) {
    const r = await open(t, `/api/paste/${slug}`, creator.auth, { password: "pw-1234" });
    assert.equal(r.status, 200);
    assert.equal(r.data.own_view, true);
  }
  const byOther = await open(t, `/api/paste/${slug}`, other.auth, { password: "pw-1234" });
  assert.equal(byOther.status, 200);
  assert.equal(byOther.data.own_view, false);
  assert.equal(byOther.data.views, 1);
  // The owner still needs the password (the page asks like it asks anyone).
  const noPassword = await open(t, `/api/paste/${slug}`, creator.auth);
  assert.equal(noPassword.status, 403);
  assert.equal(noPassword.error, "password_required");
  assert.equal(
    (await open(t, `/api/paste/${slug}`, undefined, { password: "pw-1234" })).status,
    200,
  );
  assert.equal(
    (await open(t, `/api/paste/${slug}`, creator.auth, { password: "pw-1234" })).status,
    410,
  );
});

Deno.test("the admin opens and downloads a 1-view file share without using its view", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { slug } = await shareFile(t, "file bytes", "a.txt", { max_views: "1" });
  for (let i = 0; i < 2; i++) {
    const r = await open(t, `/api/public/files/${slug}`, admin);
    assert.equal(r.status, 200);
    assert.equal(r.data.own_view, true);
    assert.equal(r.data.views, 0);
    const dl = await t.request(`/api/file-download/${slug}`, { auth: admin });
    assert.equal(await dl.text(), "file bytes", "a download with the owner's header");
    const office = await t.request(`/api/office-preview/${slug}`, { auth: admin });
    assert.equal(office.status, 200);
  }
  const recipient = await open(t, `/api/public/files/${slug}`);
  assert.equal(recipient.status, 200);
  assert.equal(recipient.data.own_view, false);
  assert.equal((await open(t, `/api/public/files/${slug}`)).status, 410);
});

Deno.test("a key that did not create a file share counts like anyone", async () => {
  await using t = await createTestApp();
  const key = await t.createKey({ file_share: true });
  const { slug } = await shareFile(t, "file bytes", "a.txt", { max_views: "1" });
  const r = await open(t, `/api/public/files/${slug}`, key.auth);
  assert.equal(r.status, 200);
  assert.equal(r.data.own_view, false);
  assert.equal((await open(t, `/api/public/files/${slug}`)).status, 410);
});
