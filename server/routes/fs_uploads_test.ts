import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import { mountLocal, uploadToMount } from "../../tests/helpers/fs_api.ts";
import { MiB, randomBytes } from "../../tests/helpers/bytes.ts";
import { postJson, putPart, putParts, startMultipart } from "../../tests/helpers/multipart.ts";

async function names(t: TestApp, auth: string, path: string, refresh = false) {
  const q = `path=${encodeURIComponent(path)}${refresh ? "&refresh=true" : ""}`;
  const res = await t.request(`/api/fs/list?${q}`, { auth });
  assert.equal(res.status, 200);
  return (await res.json()).data.items.map((i: { name: string }) => i.name);
}

async function download(t: TestApp, auth: string, path: string): Promise<Uint8Array> {
  const res = await t.request(`/api/fs/download?path=${encodeURIComponent(path)}`, { auth });
  assert.equal(res.status, 200);
  return new Uint8Array(await res.arrayBuffer());
}

function s3Config(t: TestApp, s3: Awaited<ReturnType<typeof startS3rver>>) {
  return t.createS3rverConfig(s3);
}

Deno.test("fs multipart into a local mount: parts to signed URLs, resume, complete byte-identical", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mountLocal(t, "/docs");
  assert.deepEqual(await names(t, admin, "/docs"), [], "the empty listing is now cached");
  const data = randomBytes(12 * MiB + 12345);
  const { up, slice } = await startMultipart(t, admin, "/api/fs/multipart/init", {
    path: "/docs/sub/big.bin",
  }, data);
  assert.equal(up.part_size, 5 * MiB);
  assert.equal(up.total_parts, 3);
  assert.equal(up.presigned_urls.length, 3);
  assert.equal(up.path, "/docs/sub/big.bin");
  const ref = { path: "/docs/sub/big.bin", upload_id: up.upload_id };

  // Part 1, then a "reload": find the upload, ask which parts exist, re-sign the rest.
  await putPart(t, up.presigned_urls[0].url, slice(1));
  const found = await postJson(t, admin, "/api/fs/multipart/list-uploads", { path: "/docs" });
  assert.equal(found.status, 200, JSON.stringify(found.body));
  assert.deepEqual(
    found.body.data.uploads.map((u: { upload_id: string; path: string; size: number }) => [
      u.upload_id,
      u.path,
      u.size,
    ]),
    [[up.upload_id, "/docs/sub/big.bin", data.length]],
  );
  assert.deepEqual(await names(t, admin, "/docs"), [], "staged parts never list");
  const listed = await postJson(t, admin, "/api/fs/multipart/list-parts", ref);
  assert.deepEqual(listed.body.data.parts.map((p: { partNumber: number }) => p.partNumber), [1]);
  assert.equal(listed.body.data.total_parts, 3);
  const fresh = await postJson(t, admin, "/api/fs/multipart/refresh-urls", {
    ...ref,
    part_numbers: [2, 3],
  });
  assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
  for (const p of fresh.body.data.presigned_urls) {
    await putPart(t, p.url, slice(p.partNumber));
  }
  const parts = (await postJson(t, admin, "/api/fs/multipart/list-parts", ref)).body.data.parts
    .map((p: { partNumber: number; etag: string }) => ({
      partNumber: p.partNumber,
      ETag: p.etag,
    }))
    .reverse(); // any order is accepted
  const done = await postJson(t, admin, "/api/fs/multipart/complete", { ...ref, parts });
  assert.equal(done.status, 201, JSON.stringify(done.body));
  assert.deepEqual([done.body.data.size, done.body.data.path], [data.length, ref.path]);
  assert.deepEqual(await download(t, admin, ref.path), data);
  assert.deepEqual(await names(t, admin, "/docs"), ["sub"], "the completed upload invalidated");
  assert.deepEqual(await names(t, admin, "/docs/sub"), ["big.bin"]);
  const searched = await t.request("/api/fs/search?q=big.bin", { auth: admin });
  const hits = (await searched.json()).data.items.map((i: { path: string }) => i.path);
  assert.deepEqual(hits, ["/docs/sub/big.bin"], "the completed upload is indexed for search");
  const gone = await postJson(t, admin, "/api/fs/multipart/list-uploads", { path: "/docs" });
  assert.deepEqual(gone.body.data.uploads, []);
  const again = await postJson(t, admin, "/api/fs/multipart/complete", { ...ref, parts });
  assert.equal(again.status, 404, "a completed upload is gone");
});

Deno.test("fs multipart: validation, mount bits, base path /a vs /ab, traversal, ownership", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mountLocal(t, "/a");
  await mountLocal(t, "/ab");
  assert.equal(await t.statusOf("POST", "/api/fs/mkdir", admin, { path: "/a/folder" }), 201);
  const key = async (perms: Record<string, boolean>, basic_path = "/") =>
    (await t.createKey(perms, { basic_path })).auth;
  const up = { mount_view: true, mount_upload: true };
  const alice = await key(up);
  const bob = await key(up);
  const viewOnly = await key({ mount_view: true });
  const textOnly = await key({ text: true, file: true });
  const inA = await key(up, "/a");
  const init = (auth: string | undefined, path: string, size = 6 * MiB) =>
    postJson(t, auth, "/api/fs/multipart/init", { path, size });

  assert.equal((await init(undefined, "/a/x.bin")).status, 401);
  assert.equal((await init(viewOnly, "/a/x.bin")).status, 403);
  assert.equal((await init(textOnly, "/a/x.bin")).status, 403);
  assert.equal((await init(inA, "/ab/x.bin")).status, 403, "/a does not cover /ab");
  assert.equal((await init(inA, "/a/../ab/x.bin")).status, 400);
  for (const bad of ["/a/x\\y.bin", "/a/x\0.bin", "/a/./x.bin", "/a"]) {
    assert.equal((await init(admin, bad)).status, 400, JSON.stringify(bad));
  }
  assert.equal((await init(admin, "/nomount/x.bin")).status, 404);
  assert.equal((await init(admin, "/a/folder")).status, 409, "a folder is not a file target");
  for (const body of [{ path: "/a/x.bin" }, { path: "/a/x.bin", size: -1 }, { size: 5 }]) {
    assert.equal((await postJson(t, admin, "/api/fs/multipart/init", body)).status, 400);
  }
  const bodyless = await t.request("/api/fs/multipart/init", {
    method: "POST",
    auth: admin,
    body: "{nope",
    headers: { "content-type": "application/json" },
  });
  assert.equal(bodyless.status, 400);
  await bodyless.body?.cancel();

  const mine = await init(alice, "/a/x.bin");
  assert.equal(mine.status, 200, JSON.stringify(mine.body));
  assert.equal(mine.body.data.total_parts, 2);
  const ref = { path: "/a/x.bin", upload_id: mine.body.data.upload_id };
  const inAs = await init(inA, "/a/y.bin");
  assert.equal(inAs.status, 200, "a key at /a uploads inside /a");

  // Only the creator (or the admin) sees and acts on an upload.
  for (const route of ["list-parts", "abort"]) {
    assert.equal((await postJson(t, bob, `/api/fs/multipart/${route}`, ref)).status, 403, route);
  }
  const steal = await postJson(t, bob, "/api/fs/multipart/complete", {
    ...ref,
    parts: [{ partNumber: 1, ETag: "x" }],
  });
  assert.equal(steal.status, 403);
  const bobSees = await postJson(t, bob, "/api/fs/multipart/list-uploads", { path: "/a" });
  assert.deepEqual(bobSees.body.data.uploads, []);
  const aliceSees = await postJson(t, alice, "/api/fs/multipart/list-uploads", { path: "/a" });
  assert.deepEqual(
    aliceSees.body.data.uploads.map((u: { path: string }) => u.path),
    ["/a/x.bin"],
  );
  const adminSees = await postJson(t, admin, "/api/fs/multipart/list-uploads", { path: "/a" });
  assert.deepEqual(
    adminSees.body.data.uploads.map((u: { path: string }) => u.path).sort(),
    ["/a/x.bin", "/a/y.bin"],
  );
  assert.equal(
    (await postJson(t, inA, "/api/fs/multipart/list-uploads", { path: "/ab" })).status,
    403,
  );
  assert.equal((await postJson(t, admin, "/api/fs/multipart/list-parts", ref)).status, 200);
  const elsewhere = await postJson(t, alice, "/api/fs/multipart/list-parts", {
    ...ref,
    path: "/a/other.bin",
  });
  assert.equal(elsewhere.status, 404, "an upload id only works with its own path");
  const unknown = await postJson(t, alice, "/api/fs/multipart/list-parts", {
    ...ref,
    upload_id: "01HZZZZZZZZZZZZZZZZZZZZZZZ",
  });
  assert.equal(unknown.status, 404);

  const outOfRange = await postJson(t, alice, "/api/fs/multipart/refresh-urls", {
    ...ref,
    part_numbers: [3],
  });
  assert.equal(outOfRange.status, 400);
  for (
    const body of [
      { ...ref, part_numbers: [] },
      { ...ref, part_numbers: [0] },
      { path: "/a/x.bin", part_numbers: [1] },
    ]
  ) {
    assert.equal((await postJson(t, alice, "/api/fs/multipart/refresh-urls", body)).status, 400);
  }
  const noParts = await postJson(t, alice, "/api/fs/multipart/complete", { ...ref, parts: [] });
  assert.equal(noParts.status, 400);
  const unknownPart = await postJson(t, alice, "/api/fs/multipart/complete", {
    ...ref,
    parts: [{ partNumber: 1, ETag: '"nope"' }],
  });
  assert.equal(unknownPart.status, 400, "parts never uploaded are refused by the store");
  assert.equal((await postJson(t, viewOnly, "/api/fs/multipart/abort", ref)).status, 403);

  const aborted = await postJson(t, alice, "/api/fs/multipart/abort", ref);
  assert.equal(aborted.status, 200);
  assert.equal((await postJson(t, alice, "/api/fs/multipart/list-parts", ref)).status, 404);
  const left = await postJson(t, admin, "/api/fs/multipart/list-uploads", { path: "/a" });
  assert.deepEqual(left.body.data.uploads.map((u: { path: string }) => u.path), ["/a/y.bin"]);
});

Deno.test("fs presign + commit into a local mount", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mountLocal(t, "/docs");
  const uploader = (await t.createKey({ mount_view: true, mount_upload: true })).auth;
  const viewOnly = (await t.createKey({ mount_view: true })).auth;
  assert.deepEqual(await names(t, uploader, "/docs"), []);
  const body = new TextEncoder().encode("presigned 你好");
  const pre = await postJson(t, uploader, "/api/fs/presign", {
    path: "/docs/p.txt",
    size: body.length,
  });
  assert.equal(pre.status, 200, JSON.stringify(pre.body));
  assert.match(pre.body.data.upload_url, /^http:\/\/127\.0\.0\.1\/api\/storage\/local\//);
  assert.equal(pre.body.data.contentType, "text/plain");
  const etag = await putPart(t, pre.body.data.upload_url, body, pre.body.data.contentType);
  const commit = await postJson(t, uploader, "/api/fs/presign/commit", {
    path: "/docs/p.txt",
    size: body.length,
    etag,
  });
  assert.equal(commit.status, 201, JSON.stringify(commit.body));
  assert.deepEqual([commit.body.data.size, commit.body.data.type], [body.length, "file"]);
  assert.deepEqual(await download(t, admin, "/docs/p.txt"), body);
  assert.deepEqual(await names(t, uploader, "/docs"), ["p.txt"], "the commit invalidated");

  const wrongSize = await postJson(t, uploader, "/api/fs/presign/commit", {
    path: "/docs/p.txt",
    size: 3,
  });
  assert.deepEqual([wrongSize.status, wrongSize.body.error], [400, "upload_incomplete"]);
  const wrongEtag = await postJson(t, uploader, "/api/fs/presign/commit", {
    path: "/docs/p.txt",
    etag: '"other"',
  });
  assert.deepEqual([wrongEtag.status, wrongEtag.body.error], [409, "upload_etag_mismatch"]);
  const missing = await postJson(t, uploader, "/api/fs/presign/commit", { path: "/docs/nope.txt" });
  assert.deepEqual([missing.status, missing.body.error], [400, "upload_incomplete"]);
  assert.equal(
    (await postJson(t, viewOnly, "/api/fs/presign", { path: "/docs/q.txt" })).status,
    403,
  );
  assert.equal(
    (await postJson(t, viewOnly, "/api/fs/presign/commit", { path: "/docs/p.txt" })).status,
    403,
  );
  assert.equal((await postJson(t, uploader, "/api/fs/presign", { path: "/docs" })).status, 400);
  assert.equal((await postJson(t, uploader, "/api/fs/presign", { path: "/docs/.." })).status, 400);
  assert.equal((await postJson(t, uploader, "/api/fs/presign", {})).status, 400);

  // The signed URL is the only credential, and it names its key: it cannot write elsewhere.
  const url = new URL(pre.body.data.upload_url);
  url.pathname = url.pathname.replace("p.txt", "evil.txt");
  const forged = await t.request(url.toString(), { method: "PUT", body: "x" });
  assert.equal(forged.status, 403);
  await forged.body?.cancel();
});

Deno.test("fs multipart and presign on an s3rver mount (ListParts, ListMultipartUploads gaps)", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const admin = await t.adminAuth();
  const cfg = await s3Config(t, s3);
  await mountLocal(t, "/bucket", { storage_type: "s3", storage_config_id: cfg.id });
  assert.deepEqual(await names(t, admin, "/bucket"), []);

  const data = randomBytes(5 * MiB + 777);
  const { up, slice } = await startMultipart(t, admin, "/api/fs/multipart/init", {
    path: "/bucket/dir/s3.bin",
  }, data);
  assert.equal(up.total_parts, 2);
  assert.ok(up.presigned_urls[0].url.startsWith(s3.endpoint), "parts go straight to the bucket");
  const parts = await putParts(t, up.presigned_urls, slice);
  const ref = { path: "/bucket/dir/s3.bin", upload_id: up.upload_id };
  // Gaps of s3rver, not of Cubby: it has no ListParts, ListMultipartUploads or
  // AbortMultipartUpload, so resuming and aborting are tested against the local driver
  // above. Here those calls fail cleanly with the store's answer.
  const listParts = await postJson(t, admin, "/api/fs/multipart/list-parts", ref);
  assert.deepEqual(
    [listParts.status, listParts.body.data.provider_code],
    [502, "MethodNotAllowed"],
    "s3rver lacks ListParts",
  );
  const listUploads = await postJson(t, admin, "/api/fs/multipart/list-uploads", {
    path: "/bucket",
  });
  assert.deepEqual(
    [listUploads.status, listUploads.body.data.provider_code],
    [502, "NotImplemented"],
    "s3rver lacks ListMultipartUploads",
  );
  const refreshed = await postJson(t, admin, "/api/fs/multipart/refresh-urls", {
    ...ref,
    part_numbers: [2],
  });
  assert.equal(refreshed.status, 200, "re-signing needs no S3 call");
  assert.ok(refreshed.body.data.presigned_urls[0].url.startsWith(s3.endpoint));

  const done = await postJson(t, admin, "/api/fs/multipart/complete", { ...ref, parts });
  assert.equal(done.status, 201, JSON.stringify(done.body));
  assert.equal(done.body.data.size, data.length);
  assert.deepEqual(await download(t, admin, ref.path), data);
  assert.deepEqual(await names(t, admin, "/bucket"), ["dir"], "the completed upload invalidated");
  const other = await postJson(t, admin, "/api/fs/multipart/init", {
    path: "/bucket/x.bin",
    size: 1,
  });
  const abort = await postJson(t, admin, "/api/fs/multipart/abort", {
    path: "/bucket/x.bin",
    upload_id: other.body.data.upload_id,
  });
  assert.deepEqual(
    [abort.status, abort.body.data.provider_code],
    [502, "MethodNotAllowed"],
    "s3rver lacks AbortMultipartUpload; the failure is reported, not hidden",
  );

  const text = new TextEncoder().encode("straight to s3");
  const pre = await postJson(t, admin, "/api/fs/presign", {
    path: "/bucket/dir/p.txt",
    size: text.length,
  });
  assert.equal(pre.status, 200, JSON.stringify(pre.body));
  assert.ok(pre.body.data.upload_url.startsWith(s3.endpoint));
  const etag = await putPart(t, pre.body.data.upload_url, text, pre.body.data.contentType);
  const short = await postJson(t, admin, "/api/fs/presign/commit", {
    path: "/bucket/dir/p.txt",
    size: text.length + 1,
  });
  assert.equal(short.status, 400);
  const commit = await postJson(t, admin, "/api/fs/presign/commit", {
    path: "/bucket/dir/p.txt",
    size: text.length,
    etag,
  });
  assert.equal(commit.status, 201, JSON.stringify(commit.body));
  assert.deepEqual(await download(t, admin, "/bucket/dir/p.txt"), text);
  assert.deepEqual(await names(t, admin, "/bucket/dir"), ["p.txt", "s3.bin"]);
});

Deno.test("directory cache: a second list hits, refresh=true bypasses, writes invalidate", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const m = await mountLocal(t, "/c", { cache_ttl: 300 });
  await mountLocal(t, "/same", { cache_ttl: 300 }); // the same store under another mount
  await mountLocal(t, "/nocache", { cache_ttl: 0 });
  const stats = () => t.services.caches.directory.stats();
  const upload = (dir: string, name: string, body: string) =>
    uploadToMount(t, dir, name, body, admin);
  await upload("/c", "a.txt", "a");

  const before = stats();
  assert.deepEqual(await names(t, admin, "/c"), ["a.txt"]);
  assert.deepEqual(await names(t, admin, "/c"), ["a.txt"]);
  assert.equal(stats().misses - before.misses, 1);
  assert.equal(stats().hits - before.hits, 1, "the second list is a hit");

  // A write outside Cubby stays unseen until a refresh, which then refreshes the cache.
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(m.storage_config_id),
  );
  await driver.put("outside.txt", "o");
  assert.deepEqual(await names(t, admin, "/c"), ["a.txt"], "served from the cache");
  assert.deepEqual(await names(t, admin, "/c", true), ["a.txt", "outside.txt"]);
  assert.deepEqual(await names(t, admin, "/c"), ["a.txt", "outside.txt"]);

  // Writes through Cubby drop the folders above them, in every mount of that store.
  assert.deepEqual(await names(t, admin, "/same"), ["a.txt", "outside.txt"]);
  await upload("/c/new/deep", "b.txt", "b");
  assert.deepEqual(await names(t, admin, "/c"), ["new", "a.txt", "outside.txt"]);
  assert.deepEqual(await names(t, admin, "/same"), ["new", "a.txt", "outside.txt"]);
  assert.deepEqual(await names(t, admin, "/c/new/deep"), ["b.txt"]);
  // A folder delete drops its subtree; a rename drops both ends.
  assert.equal(
    await t.statusOf("POST", "/api/fs/rename", admin, { oldPath: "/c/new", newPath: "/c/moved" }),
    200,
  );
  assert.deepEqual(await names(t, admin, "/c/new/deep"), []);
  assert.deepEqual(await names(t, admin, "/c/moved/deep"), ["b.txt"]);
  const rm = await t.request("/api/fs/batch-remove", {
    method: "DELETE",
    auth: admin,
    json: { paths: ["/c/moved"] },
  });
  assert.equal((await rm.json()).data.deleted, 1);
  assert.deepEqual(await names(t, admin, "/c/moved/deep"), []);
  assert.deepEqual(await names(t, admin, "/c"), ["a.txt", "outside.txt"]);

  // A mount with cache_ttl 0 is never cached.
  const mid = stats();
  await names(t, admin, "/nocache");
  await names(t, admin, "/nocache");
  assert.deepEqual([stats().hits, stats().misses], [mid.hits, mid.misses]);

  // The dashboard reports the counts; clearing drops the items.
  const res = await t.request("/api/admin/cache/stats", { auth: admin });
  const dir = (await res.json()).data.caches.find((c: { name: string }) => c.name === "directory");
  assert.ok(dir.hits >= 3 && dir.items > 0, JSON.stringify(dir));
  const cleared = await t.request("/api/admin/cache/clear", { method: "POST", auth: admin });
  assert.equal(cleared.status, 200);
  await cleared.body?.cancel();
  assert.equal(stats().items, 0);
});
