/**
 * Share requests exactly as CloudPaste 0.8.1's frontend (and `curl`) send them (issue 11):
 * uploads with `expires_in` in hours, the presign/commit flow with a string size and null slug,
 * the explorer's presign and commit, paste and file edits, and locked shares for signed-in users.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";

const HOUR = 3_600_000;

/** Uploads `body` as `auth` the way `curl -T` does: a PUT to /api/upload-direct/`nameAndQuery`. */
function uploadDirect(t: TestApp, auth: string, nameAndQuery: string, body: string) {
  return t.request(`/api/upload-direct/${nameAndQuery}`, { method: "PUT", auth, body });
}

/** Asserts an ISO time lies `hours` from `start` (within the test's own run time). */
function assertHoursAhead(iso: string, hours: number, start: number) {
  const at = Date.parse(iso);
  assert.ok(at >= start + hours * HOUR && at <= Date.now() + hours * HOUR, `${iso} ≈ +${hours}h`);
}

Deno.test("presign + commit: size as a string, slug null, expires_in in hours", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const bytes = new TextEncoder().encode("twenty-three bytes long");
  const start = Date.now();
  const pre = await t.call("POST", "/api/s3/presign", admin, {
    filename: "a.txt",
    mimetype: "text/plain",
    size: bytes.length,
    path: null,
  });
  assert.equal(pre.status, 200, pre.text);
  const p = pre.body.data;
  const put = await t.request(p.upload_url, { method: "PUT", body: bytes });
  assert.equal(put.status, 200);
  await put.body?.cancel();
  // The commit payload of docs/PRODUCT.md §3.11, in its order, as the client sends it.
  const commit = await t.call("POST", "/api/s3/commit", admin, {
    file_id: p.file_id,
    s3_config_id: null,
    storage_path: p.storage_path,
    s3_url: p.s3_url ?? null,
    filename: "a.txt",
    mimetype: "text/plain",
    size: "23",
    etag: null,
    slug: null,
    remark: "from the client",
    password: "pw1",
    expires_in: 24,
    max_views: "2",
  });
  assert.equal(commit.status, 201, commit.text);
  const view = commit.body.data;
  assert.equal(view.size, 23);
  assert.equal(view.has_password, true);
  assert.equal(view.max_views, 2);
  assertHoursAhead(view.expires_at, 24, start);
  // The share really is locked with that password.
  const locked = await t.call("GET", `/api/public/files/${view.slug}`);
  assert.equal(locked.body.error, "password_required");
  const open = await t.call("POST", `/api/public/files/${view.slug}/verify`, undefined, {
    password: "pw1",
  });
  assert.equal(open.status, 200, open.text);
  assert.equal(open.body.data.filename, "a.txt");
});

Deno.test("form upload, upload-direct and URL upload read expires_in as hours", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const start = Date.now();
  const form = new FormData();
  // Fields before the file: any order is the upload-form parser's business (sec-upload).
  form.append("expires_in", "1");
  form.append("slug", "");
  form.append("max_views", "0");
  form.append("file", new Blob(["form bytes"]), "f.txt");
  const viaForm = await t.request("/api/upload", { method: "POST", auth: admin, body: form });
  const formView = (await viaForm.json()).data;
  assert.equal(viaForm.status, 201);
  assertHoursAhead(formView.expires_at, 1, start);

  const direct = await uploadDirect(t, admin, "d.txt?expires_in=168", "direct");
  assert.equal(direct.status, 201);
  assertHoursAhead((await direct.json()).data.expires_at, 168, start);

  const pre = (await t.call("POST", "/api/url/presign", admin, {
    url: "https://example.com/u.bin",
    filename: "u.bin",
    size: "3",
  })).body.data;
  await (await t.request(pre.upload_url, { method: "PUT", body: "abc" })).body?.cancel();
  const commit = await t.call("POST", "/api/url/commit", admin, {
    file_id: pre.file_id,
    expires_in: 720,
    slug: null,
  });
  assert.equal(commit.status, 201, commit.text);
  assertHoursAhead(commit.body.data.expires_at, 720, start);

  // An exact expires_at still works, and wins.
  const at = new Date(Date.now() + 2 * HOUR).toISOString();
  const exact = await uploadDirect(t, admin, `e.txt?expires_at=${at}&expires_in=1`, "exact");
  assert.equal((await exact.json()).data.expires_at, at);
});

Deno.test("explorer presign {path: folder, fileName, fileSize}; commit {targetPath, mountId}", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.createMount("/docs");
  await t.call("POST", "/api/fs/mkdir", admin, { path: "/docs/inbox/" });
  const bytes = new TextEncoder().encode("explorer bytes");
  const pre = await t.call("POST", "/api/fs/presign", admin, {
    path: "/docs/inbox/",
    fileName: "note.txt",
    contentType: "text/plain",
    fileSize: bytes.length,
  });
  assert.equal(pre.status, 200, pre.text);
  assert.equal(pre.body.data.targetPath, "/docs/inbox/note.txt");
  const put = await t.request(pre.body.data.upload_url, { method: "PUT", body: bytes });
  assert.equal(put.status, 200);
  await put.body?.cancel();
  const commit = await t.call("POST", "/api/fs/presign/commit", admin, {
    targetPath: pre.body.data.targetPath,
    mountId: pre.body.data.mountId,
    fileSize: bytes.length,
  });
  assert.equal(commit.status, 201, commit.text);
  // The file landed in the folder.
  const list = await t.call("GET", "/api/fs/list?path=/docs/inbox&refresh=true", admin);
  const names = list.body.data.items.map((i: { name: string }) => i.name);
  assert.deepEqual(names, ["note.txt"]);
  const wrongMount = await t.call("POST", "/api/fs/presign/commit", admin, {
    targetPath: "/docs/inbox/note.txt",
    mountId: "another",
    fileSize: bytes.length,
  });
  assert.equal(wrongMount.status, 400);
  assert.equal(wrongMount.body.error, "storage_path_invalid");
});

Deno.test("paste edits: PUT by slug, max_views/remark null, clearPassword, newSlug", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const created = await t.call("POST", "/api/paste", admin, {
    content: "hello",
    slug: "old-slug",
    remark: "r",
    password: "pw",
    max_views: 5,
  });
  const id = created.body.data.id;
  const edit = await t.call("PUT", "/api/pastes/old-slug", admin, {
    content: "hello again",
    remark: null,
    expires_at: null,
    max_views: null,
    clearPassword: true,
    newSlug: "new-slug",
  });
  assert.equal(edit.status, 200, edit.text);
  const after = (await t.call("GET", `/api/pastes/${id}`, admin)).body.data;
  assert.equal(after.slug, "new-slug");
  assert.equal(after.remark, null);
  assert.equal(after.max_views, 0);
  assert.equal(after.has_password, false);
  const opened = await t.call("GET", "/api/paste/new-slug");
  assert.equal(opened.body.data.content, "hello again");
  assert.equal((await t.call("GET", "/api/paste/old-slug")).status, 404);
  // The id still works too.
  const byId = await t.call("PUT", `/api/pastes/${id}`, admin, { password: "again" });
  assert.equal(byId.body.data.has_password, true);
});

Deno.test("file edits: max_views/remark null, clearPassword, newSlug", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const up = await uploadDirect(t, admin, "f.txt?password=pw&max_views=3&remark=r", "file");
  const file = (await up.json()).data;
  const edit = await t.call("PUT", `/api/files/${file.id}`, admin, {
    remark: null,
    max_views: null,
    expires_at: null,
    clearPassword: true,
    newSlug: "renamed",
  });
  assert.equal(edit.status, 200, edit.text);
  const after = (await t.call("GET", `/api/files/${file.id}`, admin)).body.data;
  assert.equal(after.slug, "renamed");
  assert.equal(after.remark, "");
  assert.equal(after.max_views, 0);
  assert.equal(after.has_password, false);
  const open = await t.call("GET", "/api/public/files/renamed");
  assert.equal(open.status, 200, open.text);
});

Deno.test("edits with both slug (the current one) and newSlug: newSlug wins, for pastes and files", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.call("POST", "/api/paste", admin, { content: "hello", slug: "before" });
  // The body of CloudPaste's edit dialog: the current slug, then the new one.
  const edit = await t.call("PUT", "/api/pastes/before", admin, {
    slug: "before",
    newSlug: "after",
    content: "hello",
  });
  assert.equal(edit.status, 200, edit.text);
  assert.equal(edit.body.data.slug, "after");
  assert.equal((await t.call("GET", "/api/paste/after")).status, 200);
  assert.equal((await t.call("GET", "/api/paste/before")).status, 404);
  // An empty newSlug asks for no change.
  const keep = await t.call("PUT", "/api/pastes/after", admin, { slug: "after", newSlug: "" });
  assert.equal(keep.body.data.slug, "after");

  const up = await uploadDirect(t, admin, "f.txt?slug=file-before", "file");
  const file = (await up.json()).data;
  const fileEdit = await t.call("PUT", `/api/files/${file.id}`, admin, {
    slug: "file-before",
    newSlug: "file-after",
  });
  assert.equal(fileEdit.status, 200, fileEdit.text);
  assert.equal(fileEdit.body.data.slug, "file-after");
  assert.equal((await t.call("GET", "/api/public/files/file-after")).status, 200);
});

Deno.test("a locked share opened by a signed-in admin or key answers 403, not 401", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const key = await t.createKey({ text: true, file: true });
  await t.call("POST", "/api/paste", admin, { content: "x", slug: "locked", password: "p" });
  const up = await uploadDirect(t, admin, "l.txt?password=p&slug=lockedf", "locked");
  await up.body?.cancel();
  for (const auth of [admin, key.auth, undefined]) {
    for (const path of ["/api/paste/locked", "/api/public/files/lockedf"]) {
      const res = await t.call("GET", path, auth);
      assert.equal(res.status, 403, `${path} ${auth}`);
      assert.equal(res.body.error, "password_required");
    }
  }
  // The session is untouched.
  assert.equal((await t.call("GET", "/api/test/admin-token", admin)).status, 200);
});

Deno.test("curl pastes: text/plain and urlencoded bodies, options in the query", async () => {
  await using t = await createTestApp();
  const key = await t.createKey({ text: true });
  /** POSTs a raw body to a paste route as the key, the way curl does. */
  const curl = (path: string, headers: Record<string, string>, body: string) =>
    t.request(path, { method: "POST", auth: key.auth, headers, body });
  const piped = await curl(
    "/api/paste?max_views=2&remark=cli",
    { "content-type": "text/plain", accept: "text/plain" },
    "hi from a pipe\n",
  );
  assert.equal(piped.status, 201);
  assert.match(piped.headers.get("content-type") ?? "", /^text\/plain/);
  const url = (await piped.text()).trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1\/paste\/[A-Za-z0-9_-]+$/);
  const slug = url.split("/").pop();
  const read = await t.call("GET", `/api/paste/${slug}`);
  assert.equal(read.body.data.content, "hi from a pipe\n");
  assert.equal(read.body.data.max_views, 2);
  assert.equal(read.body.data.remark, "cli");

  // curl -d content=... sends a form; without Accept: text/plain the reply is the envelope.
  const form = await curl(
    "/api/paste?slug=from-form",
    { "content-type": "application/x-www-form-urlencoded" },
    "content=a%20b%26c",
  );
  assert.equal(form.status, 201);
  assert.equal((await form.json()).data.slug, "from-form");
  assert.equal((await t.call("GET", "/api/paste/from-form")).body.data.content, "a b&c");

  const empty = await curl("/api/paste", { "content-type": "text/plain" }, "");
  assert.equal(empty.status, 400);
  assert.equal((await empty.json()).error, "content_empty");
});
