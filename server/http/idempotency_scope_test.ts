/**
 * Who and what an Idempotency-Key applies to: only real writes by the admin or an API key.
 * Reads that use POST (unlocking a paste, verifying a file password) run again every time, an
 * anonymous caller's key stores nothing, and every body (JSON sent as octet-stream, raw and
 * multipart uploads) is part of the request's fingerprint.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { sharePaste } from "../../tests/helpers/shares.ts";

const KEY = { "Idempotency-Key": "same-key" };

/** Every record the idempotency store holds (reservations, kept replies and their chunks). */
async function idempotencyRecords(t: TestApp): Promise<number> {
  let n = 0;
  for (const prefix of [["idempotency"], ["idempotency_chunks"]]) {
    for await (const _ of t.kv.list({ prefix })) n++;
  }
  return n;
}

/**
 * Deletes share `id` through its batch-delete route, then sends `request` again: it answers
 * that the share is gone, not a replay of its earlier answer. Returns that answer.
 */
async function deletedThenSent(
  t: TestApp,
  auth: string,
  kind: "pastes" | "files",
  id: string,
  request: () => Promise<Response>,
): Promise<Response> {
  const del = await t.request(`/api/${kind}/batch-delete`, {
    method: "POST",
    auth,
    json: { ids: [id] },
  });
  assert.equal(del.status, 200);
  const gone = await request();
  assert.ok([404, 410].includes(gone.status), String(gone.status));
  assert.equal(gone.headers.get("Idempotent-Replayed"), null);
  return gone;
}

/** Sends bytes with a media type, as a client that does not say JSON would. */
function postBytes(t: TestApp, path: string, text: string, type: string, auth?: string) {
  return t.request(path, {
    method: "POST",
    auth,
    body: new TextEncoder().encode(text),
    headers: { ...KEY, "content-type": type },
  });
}

Deno.test("an anonymous caller's keys store nothing, however many it sends", async () => {
  await using t = await createTestApp();
  const { slug } = await sharePaste(t, { content: "x".repeat(2000) });
  for (let i = 0; i < 300; i++) {
    const res = await t.request(`/api/paste/${slug}`, {
      method: "POST",
      json: { password: "x" },
      headers: { "Idempotency-Key": `fill-${i}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("Idempotent-Replayed"), null);
    await res.body?.cancel();
  }
  // An anonymous write fails its auth before any key is looked at.
  const write = await t.request("/api/paste", {
    method: "POST",
    json: { content: "anon" },
    headers: { "Idempotency-Key": "anon-write" },
  });
  assert.equal(write.status, 401);
  await write.body?.cancel();
  assert.equal(await idempotencyRecords(t), 0);
});

Deno.test("unlocking a used-up paste that was deleted is never replayed", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const paste = await sharePaste(t, {
    content: "burn after reading",
    password: "pw-1234",
    max_views: 1,
  });
  const unlock = () =>
    t.request(`/api/paste/${paste.slug}`, {
      method: "POST",
      json: { password: "pw-1234" },
      headers: KEY,
    });
  const first = await unlock();
  assert.equal(first.status, 200);
  assert.equal((await first.json()).data.content, "burn after reading");
  const used = await unlock();
  assert.equal(used.status, 410, "a 1-view paste is used up after one unlock");
  assert.ok(!(await used.text()).includes("burn after reading"));
  const gone = await deletedThenSent(t, auth, "pastes", paste.id, unlock);
  assert.ok(!(await gone.text()).includes("burn after reading"));
});

Deno.test("verifying a deleted file share's password is never replayed", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const up = await t.request("/api/upload-direct/secret.txt?password=pw-1234&max_views=1", {
    method: "PUT",
    auth,
    body: "file secret",
    headers: { "content-type": "text/plain" },
  });
  const file = (await up.json()).data as { id: string; slug: string };
  assert.equal(up.status, 201);
  const verify = () =>
    t.request(`/api/public/files/${file.slug}/verify`, {
      method: "POST",
      json: { password: "pw-1234" },
      headers: KEY,
    });
  const first = await verify();
  assert.equal(first.status, 200, await first.clone().text());
  await deletedThenSent(t, auth, "files", file.id, verify);
  assert.equal(await idempotencyRecords(t), 0);
});

Deno.test("a wrong password of the same length, as octet-stream, is checked, not replayed", async () => {
  await using t = await createTestApp();
  const { slug } = await sharePaste(t, { content: "protected text", password: "right-pw" });
  const type = "application/octet-stream";
  const right = await postBytes(t, `/api/paste/${slug}`, '{"password":"right-pw"}', type);
  assert.equal(right.status, 200);
  const wrong = await postBytes(t, `/api/paste/${slug}`, '{"password":"wrong-pw"}', type);
  assert.notEqual(wrong.status, 200);
  assert.equal(wrong.headers.get("Idempotent-Replayed"), null);
  assert.ok(!(await wrong.text()).includes("protected text"));
});

Deno.test("an octet-stream body is part of a write's fingerprint", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const type = "application/octet-stream";
  const first = await postBytes(t, "/api/paste", '{"content":"aaaa"}', type, auth);
  assert.equal(first.status, 201, await first.clone().text());
  const other = await postBytes(t, "/api/paste", '{"content":"bbbb"}', type, auth);
  assert.equal(other.status, 422);
  assert.equal((await other.json()).error, "idempotency_key_reused");
  const same = await postBytes(t, "/api/paste", '{"content":"aaaa"}', type, auth);
  assert.equal(same.headers.get("Idempotent-Replayed"), "true");
  assert.deepEqual(await same.json(), await first.json());
});

Deno.test("upload-direct: another file under the same key is refused, the same file replays", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const upload = (bytes: Uint8Array<ArrayBuffer>) =>
    t.request("/api/upload-direct/data.bin", {
      method: "PUT",
      auth,
      body: bytes,
      headers: { ...KEY, "content-type": "application/octet-stream" },
    });
  const one = new Uint8Array(16).fill(1);
  const two = new Uint8Array(16).fill(2);
  const first = await upload(one);
  assert.equal(first.status, 201, await first.clone().text());
  const share = await first.json();
  const other = await upload(two);
  assert.equal(other.status, 422);
  assert.equal((await other.json()).error, "idempotency_key_reused");
  const again = await upload(one);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("Idempotent-Replayed"), "true");
  assert.deepEqual(await again.json(), share);
  const files = await (await t.request("/api/files", { auth })).json();
  assert.equal(files.data.items.length, 1);
  const stored = await t.request(`/api/file-download/${share.data.slug}`);
  assert.deepEqual(new Uint8Array(await stored.arrayBuffer()), one);
});

/** A multipart form with one file part, under the given boundary. */
function form(boundary: string, file: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="remark"\r\n\r\nr\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${file}\r\n--${boundary}--\r\n`,
  );
}

Deno.test("a multipart upload is known by its content, not by its boundary", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const upload = (boundary: string, file: string) =>
    t.request("/api/upload", {
      method: "POST",
      auth,
      body: form(boundary, file),
      headers: { ...KEY, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
  const first = await upload("boundary-AAAA", "file one");
  assert.equal(first.status, 201, await first.clone().text());
  const share = await first.json();
  // A retry of the same form, serialised again with a fresh boundary (as browsers and curl do).
  const retry = await upload("boundary-BBBB", "file one");
  assert.equal(retry.headers.get("Idempotent-Replayed"), "true");
  assert.deepEqual(await retry.json(), share);
  const other = await upload("boundary-CCCC", "file two");
  assert.equal(other.status, 422);
  assert.equal((await other.json()).error, "idempotency_key_reused");
  const files = await (await t.request("/api/files", { auth })).json();
  assert.equal(files.data.items.length, 1);
});
