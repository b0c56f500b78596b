/**
 * Shares the sweeper removed after their expiry leave a tombstone: the link keeps answering 410
 * "expired or used up" instead of 404, and a custom slug is not reusable at once (409
 * slug_taken, saying why) until the admin clears expired shares or the tombstone lapses. A
 * delete through the admin lists frees the slug at once. The sweep runs with a `now` past the
 * shares' expiry instead of waiting for it.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { shareFile } from "../../tests/helpers/shares.ts";
import { writeTombstone } from "../shares/tombstones.ts";

const HOUR = 3_600_000;
const inAnHour = () => new Date(Date.now() + HOUR).toISOString();

async function createPaste(t: TestApp, auth: string, slug: string) {
  const res = await t.request("/api/paste", {
    method: "POST",
    auth,
    lang: "en-US",
    json: { content: "short-lived", slug, expires_at: inAnHour() },
  });
  return { status: res.status, body: await res.json() };
}

/** Runs the sweeper's removal as if two hours had passed. */
async function sweepLater(t: TestApp) {
  const later = Date.now() + 2 * HOUR;
  return await t.services.pastes.deleteExpired(later) + await t.services.files.deleteExpired(later);
}

Deno.test("a swept paste answers 410 on every route, and its slug is reserved", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  assert.equal((await createPaste(t, admin, "swept-one")).status, 201);
  assert.equal(await sweepLater(t), 1);

  const open = await t.request("/api/paste/swept-one");
  assert.equal(open.status, 410);
  assert.equal((await open.json()).error, "paste_expired");
  assert.equal((await t.request("/api/raw/swept-one")).status, 410);
  const page = await t.request("/paste/swept-one", { lang: "en-US" });
  assert.equal(page.status, 410);
  assert.match(await page.text(), /expired or is used up/);

  const again = await createPaste(t, admin, "swept-one");
  assert.equal(again.status, 409);
  assert.equal(again.body.error, "slug_taken", "clients that know only slug_taken still match");
  assert.match(again.body.message, /belonged to a share that expired.*30 days/);
  // Renaming another paste to it is refused the same way.
  const other = (await createPaste(t, admin, "other-one")).body.data;
  const rename = await t.request(`/api/pastes/${other.id}`, {
    method: "PUT",
    auth: admin,
    json: { slug: "swept-one" },
  });
  assert.equal(rename.status, 409);
  assert.equal((await rename.json()).data.message_code, "slug_recently_expired");

  // The admin's "clear expired" frees it.
  const cleared = await t.request("/api/pastes/clear-expired", {
    method: "POST",
    auth: admin,
    json: { clearExpired: true },
  });
  assert.equal(cleared.status, 200);
  assert.equal((await t.request("/api/paste/swept-one")).status, 404);
  assert.equal((await createPaste(t, admin, "swept-one")).status, 201);
});

Deno.test("deleting a paste through the admin list frees its slug at once", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { id } = (await createPaste(t, admin, "deleted-one")).body.data;
  const del = await t.request("/api/pastes/batch-delete", {
    method: "DELETE",
    auth: admin,
    json: { ids: [id] },
  });
  assert.equal((await del.json()).data.deleted, 1);
  assert.equal((await t.request("/api/paste/deleted-one")).status, 404);
  assert.equal((await createPaste(t, admin, "deleted-one")).status, 201);
});

Deno.test("a key's clear-expired frees only its own tombstones", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true });
  await createPaste(t, admin, "admins-slug");
  await createPaste(t, key.auth, "keys-slug");
  assert.equal(await sweepLater(t), 2);
  await t.request("/api/pastes/clear-expired", {
    method: "POST",
    auth: key.auth,
    json: { clearExpired: true },
  });
  assert.equal((await t.request("/api/paste/keys-slug")).status, 404);
  assert.equal((await t.request("/api/paste/admins-slug")).status, 410);
  assert.equal((await createPaste(t, key.auth, "admins-slug")).status, 409);
});

Deno.test("a lapsed tombstone frees the slug even before KV drops it", async () => {
  await using t = await createTestApp();
  const op = t.kv.atomic();
  writeTombstone(
    op,
    "paste",
    { slug: "old-one", created_by: "admin" },
    Date.now() - 31 * 24 * HOUR,
  );
  assert.ok((await op.commit()).ok);
  assert.equal((await t.request("/api/paste/old-one")).status, 404);
  assert.equal((await createPaste(t, await t.adminAuth(), "old-one")).status, 201);
});

Deno.test("a swept file share answers 410 on every route, and its slug is reserved", async () => {
  await using t = await createTestApp();
  await shareFile(t, "bytes", "a.txt", { slug: "swept-file", expires_in: "1" });
  assert.equal(await sweepLater(t), 1);
  for (const path of ["/api/public/files/swept-file", "/api/file-download/swept-file"]) {
    assert.equal((await t.request(path)).status, 410, path);
  }
  assert.equal((await t.request("/file/swept-file")).status, 410);

  const fd = new FormData();
  fd.set("slug", "swept-file");
  fd.set("file", new Blob(["again"]), "b.txt");
  const res = await t.request("/api/upload", {
    method: "POST",
    auth: await t.adminAuth(),
    lang: "en-US",
    body: fd,
  });
  assert.equal(res.status, 409);
  const body = await res.json();
  assert.equal(body.error, "slug_taken");
  assert.match(body.message, /belonged to a share that expired/);

  // A file share deleted through the admin list leaves no tombstone.
  const other = await shareFile(t, "bytes", "c.txt", { slug: "deleted-file" });
  const del = await t.request("/api/files/batch-delete", {
    method: "DELETE",
    auth: await t.adminAuth(),
    json: { ids: [other.id] },
  });
  assert.equal((await del.json()).data.deleted, 1);
  assert.equal((await t.request("/api/public/files/deleted-file")).status, 404);
  await shareFile(t, "bytes", "d.txt", { slug: "deleted-file" });
});
