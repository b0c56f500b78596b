import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";

function form(fields: Record<string, string>, file: Blob, filename: string): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set("file", file, filename);
  return fd;
}

async function upload(
  t: TestApp,
  auth: string,
  fields: Record<string, string>,
  bytes: Uint8Array,
  name = "a.bin",
) {
  const res = await t.request("/api/upload", {
    method: "POST",
    auth,
    body: form(fields, new Blob([bytes as BlobPart]), name),
  });
  return { res, body: await res.json() };
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    n += e.isDirectory ? await countFiles(`${dir}/${e.name}`) : 1;
  }
  return n;
}

const random = (n: number) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) {
    crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  }
  return out;
};

Deno.test("a fresh install has a default local config, and uploads work at once", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const configs = (await (await t.request("/api/s3-configs", { auth: admin })).json()).data;
  assert.equal(configs.length, 1);
  assert.equal(configs[0].provider_type, "local");
  assert.equal(configs[0].is_default, true);

  const bytes = random(300_000);
  const { res, body } = await upload(t, admin, { remark: "hello" }, bytes, "报告 2026.pdf");
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.equal(body.data.size, bytes.length);
  assert.equal(body.data.mimetype, "application/pdf");
  assert.match(body.data.slug, /^[0-9A-Za-z]{6}$/);
  assert.ok(body.data.url.startsWith("http://127.0.0.1/file/"));

  const open = await t.request(`/api/public/files/${body.data.slug}`);
  assert.equal(open.status, 200);
  const info = (await open.json()).data;
  assert.equal(info.filename, "报告 2026.pdf");
  const dl = await t.request(info.download_url);
  assert.equal(dl.status, 200);
  assert.equal(dl.headers.get("content-security-policy"), "sandbox");
  assert.equal(dl.headers.get("x-content-type-options"), "nosniff");
  assert.match(
    dl.headers.get("content-disposition")!,
    /^attachment; .*filename\*=UTF-8''%E6%8A%A5%E5%91%8A%202026\.pdf$/,
  );
  assert.ok(dl.headers.get("etag"));
  assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes);

  const part = await t.request(info.preview_url, { headers: { range: "bytes=100-199" } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get("content-range"), `bytes 100-199/${bytes.length}`);
  assert.deepEqual(new Uint8Array(await part.arrayBuffer()), bytes.subarray(100, 200));
  const suffix = await t.request(info.preview_url, { headers: { range: "bytes=-10" } });
  assert.deepEqual(new Uint8Array(await suffix.arrayBuffer()), bytes.subarray(bytes.length - 10));
  const bad = await t.request(info.preview_url, { headers: { range: "bytes=999999999-" } });
  assert.equal(bad.status, 416);
  await bad.body?.cancel();
});

Deno.test("upload-direct takes a raw body with options in the query", async () => {
  await using t = await createTestApp();
  const { auth } = await t.createKey({ file: true });
  const bytes = new TextEncoder().encode("# Title\n\nhello from curl\n");
  const res = await t.request(
    "/api/upload-direct/notes.md?remark=cli&slug=my-notes&max_views=3",
    {
      method: "PUT",
      auth,
      body: bytes,
      headers: { "content-length": String(bytes.length) },
    },
  );
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.equal(body.data.slug, "my-notes");
  assert.equal(body.data.url, "http://127.0.0.1/file/my-notes");
  assert.equal(body.data.mimetype, "text/markdown");
  assert.equal(body.data.created_by.startsWith("apikey:"), true);

  const dup = await t.request("/api/upload-direct/x.txt?slug=my-notes", {
    method: "PUT",
    auth,
    body: "x",
  });
  assert.equal(dup.status, 409);
  assert.equal((await dup.json()).error, "slug_taken");
  const reserved = await t.request("/api/upload-direct/x.txt?slug=admin", {
    method: "PUT",
    auth,
    body: "x",
  });
  assert.equal((await reserved.json()).error, "slug_reserved");
  const invalid = await t.request("/api/upload-direct/x.txt?slug=a%20b", {
    method: "PUT",
    auth,
    body: "x",
  });
  assert.equal(invalid.status, 400);
  await invalid.body?.cancel();
  const raw = await t.request("/api/file-download/my-notes");
  assert.equal(await raw.text(), "# Title\n\nhello from curl\n");
});

Deno.test("upload-direct with Accept: text/plain answers the share URL alone, as POST /api/paste does", async () => {
  await using t = await createTestApp();
  const { auth } = await t.createKey({ file: true });
  const res = await t.request("/api/upload-direct/shot.png?slug=from-sharex", {
    method: "PUT",
    auth,
    headers: { accept: "text/plain" },
    body: new Uint8Array([137, 80, 78, 71]),
  });
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(await res.text(), "http://127.0.0.1/file/from-sharex\n");
  // JSON stays the default, and wins when both are asked for.
  const both = await t.request("/api/upload-direct/b.txt", {
    method: "PUT",
    auth,
    headers: { accept: "application/json, text/plain" },
    body: "b",
  });
  assert.equal((await both.json()).success, true);
});

Deno.test("view limits: counted opens hand out links that do not count again; exact under concurrency", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { body } = await upload(t, admin, { max_views: "5" }, random(1000));
  const slug = body.data.slug;
  const first = (await (await t.request(`/api/public/files/${slug}`)).json()).data;
  for (let i = 0; i < 3; i++) {
    const r = await t.request(first.download_url);
    assert.equal(r.status, 200);
    await r.body?.cancel();
  }
  const results = await Promise.all(
    Array.from({ length: 200 }, () => t.request(`/api/file-download/${slug}`)),
  );
  const statuses = results.map((r) => r.status);
  await Promise.all(results.map((r) => r.body?.cancel()));
  assert.equal(statuses.filter((s) => s === 200).length, 4, "5 views minus the first open");
  assert.equal(statuses.filter((s) => s === 410).length, 196);
  const gone = await t.request(`/api/public/files/${slug}`);
  assert.equal(gone.status, 410);
  await gone.body?.cancel();
});

Deno.test("password-protected files: prompt, wrong password, verify, slowed not locked", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const { body } = await upload(t, admin, { password: "open sesame" }, random(50));
  const slug = body.data.slug;
  const prompt = await t.request(`/api/public/files/${slug}`);
  assert.equal(prompt.status, 403);
  assert.equal((await prompt.json()).error, "password_required");
  const direct = await t.request(`/api/file-download/${slug}`);
  assert.equal(direct.status, 403);
  assert.equal(direct.headers.get("content-type")?.startsWith("text/plain"), true);
  await direct.body?.cancel();
  const wrong = await t.request(`/api/public/files/${slug}/verify`, {
    method: "POST",
    json: { password: "x" },
  });
  assert.equal((await wrong.json()).error, "wrong_password");
  const right = await t.request(`/api/public/files/${slug}/verify`, {
    method: "POST",
    json: { password: "open sesame" },
  });
  assert.equal(right.status, 200);
  const withPw = await t.request(
    `/api/file-download/${slug}?password=${encodeURIComponent("open sesame")}`,
  );
  assert.equal(withPw.status, 200);
  await withPw.body?.cancel();
  for (let i = 0; i < 10; i++) {
    const r = await t.request(`/api/public/files/${slug}/verify`, {
      method: "POST",
      json: { password: "no" },
    });
    await r.body?.cancel();
  }
  // Failures slow the next attempts (see rate_limits_test.ts); they never lock the share.
  const slowed = await t.request(`/api/public/files/${slug}/verify`, {
    method: "POST",
    json: { password: "open sesame" },
  });
  assert.equal(slowed.status, 200);
  await slowed.body?.cancel();
});

Deno.test("presign then PUT to the signed URL then commit (local driver)", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const bytes = random(70_000);
  const pre = await t.request("/api/s3/presign", {
    method: "POST",
    auth: admin,
    json: { filename: "clip.mp4", size: bytes.length, mimetype: "video/mp4" },
  });
  const p = (await pre.json()).data;
  assert.ok(p.upload_url && p.file_id && p.storage_path);
  assert.equal(p.provider_type, "local");
  assert.equal(p.contentType, "video/mp4");
  assert.equal(
    await t.statusOf("POST", "/api/s3/commit", admin, { file_id: p.file_id }),
    400,
    "nothing uploaded yet",
  );
  const tampered = await t.request(p.upload_url.replace("sig=", "sig=x"), {
    method: "PUT",
    body: bytes,
  });
  assert.equal(tampered.status, 403);
  await tampered.body?.cancel();
  const put = await t.request(p.upload_url, { method: "PUT", body: bytes });
  assert.equal(put.status, 200);
  const commit = await t.request("/api/s3/commit", {
    method: "POST",
    auth: admin,
    json: { file_id: p.file_id, remark: "presigned" },
  });
  const view = (await commit.json()).data;
  assert.equal(commit.status, 201);
  assert.equal(view.size, bytes.length);
  const dl = await t.request(`/api/file-download/${view.slug}`);
  assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes);
  assert.equal(
    await t.statusOf("POST", "/api/s3/commit", admin, { file_id: p.file_id }),
    404,
    "a commit happens once",
  );
});

Deno.test("limits: max upload size and storage quota refuse and leave nothing behind", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.kv.set(["settings", "max_upload_size"], 1);
  await t.kv.set(["settings", "max_upload_size_unit"], "KB");
  const big = await upload(t, admin, {}, random(5000));
  assert.equal(big.res.status, 413);
  assert.equal(big.body.error, "file_too_large");
  await t.kv.delete(["settings", "max_upload_size"]);

  const cfg = await t.createLocalConfig("small", { total_storage_bytes: 1000 });
  const first = await upload(t, admin, { s3_config_id: cfg.id }, random(800));
  assert.equal(first.res.status, 201);
  const second = await upload(t, admin, { s3_config_id: cfg.id, size: "300" }, random(300));
  assert.equal(second.res.status, 413);
  assert.equal(second.body.error, "storage_quota_exceeded");
  assert.deepEqual(second.body.data, { file_size: 300, remaining: 200, total: 1000 });
  const list = (await (await t.request("/api/files", { auth: admin })).json()).data;
  assert.equal(list.total, 1, "no record for refused uploads");
  const stored = await countFiles(`${t.dir}/small/.cubby-shares`);
  assert.equal(stored, 1, "no object for refused uploads");
  const inUse = await t.request(`/api/s3-configs/${cfg.id}`, { method: "DELETE", auth: admin });
  assert.equal(inUse.status, 409);
  assert.equal((await inUse.json()).error, "storage_config_in_use");
});

Deno.test("file management: list own, edit, reset views, delete with objects", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const a = await t.createKey({ file: true });
  const b = await t.createKey({ file: true });
  const mine = await upload(t, a.auth, {}, random(10), "a.txt");
  await upload(t, b.auth, {}, random(10), "b.txt");
  const listA = (await (await t.request("/api/files", { auth: a.auth })).json()).data;
  assert.deepEqual(listA.items.map((f: { filename: string }) => f.filename), ["a.txt"]);
  const listAdmin = (await (await t.request("/api/files", { auth: admin })).json()).data;
  assert.equal(listAdmin.total, 2);
  const id = mine.body.data.id;
  const foreign = await t.request(`/api/files/${id}`, { auth: b.auth });
  assert.equal(foreign.status, 403);
  await foreign.body?.cancel();
  const upd = await t.request(`/api/files/${id}`, {
    method: "PUT",
    auth: a.auth,
    json: { remark: "edited", slug: "renamed-a", max_views: 2, password: "pw" },
  });
  const updated = (await upd.json()).data;
  assert.equal(updated.slug, "renamed-a");
  assert.equal(updated.has_password, true);
  assert.equal((await t.request(`/api/public/files/${mine.body.data.slug}`)).status, 404);
  const del = await t.request("/api/files/batch-delete", {
    method: "DELETE",
    auth: b.auth,
    json: { ids: [id] },
  });
  assert.equal((await del.json()).data.deleted, 0, "another key cannot delete it");
  const delOwn = await t.request("/api/files/batch-delete", {
    method: "DELETE",
    auth: a.auth,
    json: { ids: [id] },
  });
  assert.equal((await delOwn.json()).data.deleted, 1);
  const after = await t.request("/api/public/files/renamed-a");
  assert.equal(after.status, 404);
  await after.body?.cancel();
});

Deno.test("access table for file and storage-config routes", async () => {
  await using t = await createTestApp();
  const roles: Record<string, string | undefined> = {
    anonymous: undefined,
    admin: await t.adminAuth(),
    keyFile: (await t.createKey({ file: true })).auth,
    keyText: (await t.createKey({ text: true })).auth,
  };
  const table: [string, string, Record<string, number>][] = [
    ["GET", "/api/files", { anonymous: 401, admin: 200, keyFile: 200, keyText: 403 }],
    ["GET", "/api/s3-configs", { anonymous: 401, admin: 200, keyFile: 200, keyText: 403 }],
    ["POST", "/api/s3-configs", { anonymous: 401, admin: 400, keyFile: 403, keyText: 403 }],
    ["PUT", "/api/upload-direct/a.txt", {
      anonymous: 401,
      admin: 201,
      keyFile: 201,
      keyText: 403,
    }],
    ["GET", "/api/system/max-upload-size", {
      anonymous: 200,
      admin: 200,
      keyFile: 200,
      keyText: 200,
    }],
  ];
  for (const [method, path, expected] of table) {
    for (const [role, status] of Object.entries(expected)) {
      const body = method === "PUT" ? "x" : method === "POST" ? "{}" : undefined;
      const res = await t.request(path, { method, auth: roles[role], body });
      assert.equal(res.status, status, `${role} ${method} ${path}`);
      await res.body?.cancel();
    }
  }
  const cfgs = (await (await t.request("/api/s3-configs", { auth: roles.admin })).json()).data;
  assert.equal("secret_access_key" in cfgs[0], false);
});
