import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import { postMountFile } from "../../tests/helpers/fs_api.ts";

function mount(t: TestApp, path: string, extra: Record<string, unknown> = {}) {
  return t.createMount(path, extra);
}

async function put(t: TestApp, auth: string, dir: string, name: string, body: string | Uint8Array) {
  const res = await postMountFile(t, dir, name, body, auth);
  return { status: res.status, body: await res.json() };
}

async function list(t: TestApp, auth: string, path: string) {
  const res = await t.request(`/api/fs/list?path=${encodeURIComponent(path)}`, { auth });
  const body = await res.json();
  return {
    status: res.status,
    body,
    names: (body.data?.items ?? []).map((i: { name: string }) => i.name),
  };
}

Deno.test("fs: upload, list, get, ranged download, save text, rename file and folder, delete", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mount(t, "/docs");
  assert.equal((await put(t, admin, "/docs", "readme.md", "# hi")).status, 201);
  assert.equal((await put(t, admin, "/docs/a", "one.txt", "1111")).status, 201);
  assert.equal((await put(t, admin, "/docs/a/deep", "two.txt", "22")).status, 201);

  assert.equal(await t.statusOf("POST", "/api/fs/mkdir", admin, { path: "/docs/new" }), 201);
  assert.deepEqual(
    (await list(t, admin, "/docs")).names,
    ["a", "new", "readme.md"],
    "empty folders list",
  );
  assert.equal(await t.statusOf("POST", "/api/fs/mkdir", admin, { path: "/docs/readme.md" }), 409);
  const rmEmpty = await t.request("/api/fs/batch-remove", {
    method: "DELETE",
    auth: admin,
    json: { paths: ["/docs/new"] },
  });
  assert.equal((await rmEmpty.json()).data.deleted, 1, "an empty folder can be deleted");

  assert.deepEqual((await list(t, admin, "/")).names, ["docs"]);
  assert.deepEqual((await list(t, admin, "/docs")).names, ["a", "readme.md"]);
  const info =
    (await (await t.request("/api/fs/get?path=/docs/readme.md", { auth: admin })).json()).data;
  assert.deepEqual([info.size, info.mimetype, info.type], [4, "text/markdown", "file"]);

  const part = await t.request("/api/fs/download?path=/docs/a/one.txt", {
    auth: admin,
    headers: { range: "bytes=1-2" },
  });
  assert.equal(part.status, 206);
  assert.equal(await part.text(), "11");
  assert.equal(part.headers.get("content-security-policy"), "sandbox");

  const saved = await t.request("/api/fs/update", {
    method: "POST",
    auth: admin,
    json: { path: "/docs/readme.md", content: "# 你好" },
  });
  assert.equal((await saved.json()).data.size, new TextEncoder().encode("# 你好").length);

  const renameFile = await t.request("/api/fs/rename", {
    method: "POST",
    auth: admin,
    json: { oldPath: "/docs/readme.md", newPath: "/docs/README.md" },
  });
  assert.equal(renameFile.status, 200);
  const folder = await t.request("/api/fs/rename", {
    method: "POST",
    auth: admin,
    json: { oldPath: "/docs/a", newPath: "/docs/b" },
  });
  assert.equal((await folder.json()).data.moved, 2);
  assert.deepEqual((await list(t, admin, "/docs")).names, ["b", "README.md"]);
  assert.deepEqual((await list(t, admin, "/docs/b/deep")).names, ["two.txt"]);
  assert.equal(
    await t.statusOf("POST", "/api/fs/rename", admin, {
      oldPath: "/docs/README.md",
      newPath: "/docs/b",
    }),
    409,
  );
  assert.equal(
    await t.statusOf("POST", "/api/fs/rename", admin, {
      oldPath: "/docs/b",
      newPath: "/docs/b/deep/b",
    }),
    400,
  );

  const removed = await t.request("/api/fs/batch-remove", {
    method: "DELETE",
    auth: admin,
    json: { paths: ["/docs/b", "/docs/README.md", "/docs/missing.txt"] },
  });
  const r = (await removed.json()).data;
  assert.equal(r.deleted, 2);
  assert.deepEqual(r.failed, [{ path: "/docs/missing.txt", error: "file_not_found" }]);
  assert.deepEqual((await list(t, admin, "/docs")).names, []);
});

Deno.test("fs: file links and shares of mount files", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mount(t, "/media");
  await put(t, admin, "/media", "clip.txt", "hello clip");
  const link =
    (await (await t.request("/api/fs/file-link?path=/media/clip.txt&force_download=true", {
      auth: admin,
    })).json()).data;
  const viaLink = await t.request(link.url);
  assert.equal(await viaLink.text(), "hello clip");
  assert.match(viaLink.headers.get("content-disposition")!, /^attachment/);

  const share = await t.request("/api/fs/create-share", {
    method: "POST",
    auth: admin,
    json: { path: "/media/clip.txt", remark: "from a mount" },
  });
  const s = (await share.json()).data;
  assert.equal(share.status, 201);
  assert.equal(await (await t.request(`/api/file-download/${s.slug}`)).text(), "hello clip");
  const del = await t.request("/api/files/batch-delete", {
    method: "DELETE",
    auth: admin,
    json: { ids: [s.id] },
  });
  assert.equal((await del.json()).data.deleted, 1);
  assert.deepEqual((await list(t, admin, "/media")).names, ["clip.txt"], "the mount file stays");
});

Deno.test("fs access: each mount bit, base path /a vs /ab, traversal payloads", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mount(t, "/a");
  await mount(t, "/ab");
  await put(t, admin, "/a", "x.txt", "x");
  await put(t, admin, "/ab", "y.txt", "y");
  const key = async (perms: Record<string, boolean>, basic_path = "/") =>
    (await t.createKey(perms, { basic_path })).auth;
  const viewOnly = await key({ mount_view: true });
  const uploader = await key({ mount_view: true, mount_upload: true });
  const renamer = await key({ mount_view: true, mount_rename: true });
  const deleter = await key({ mount_view: true, mount_delete: true });
  const inA = await key({ mount_view: true, mount_upload: true, mount_delete: true }, "/a");
  const textOnly = await key({ text: true });

  assert.equal((await list(t, viewOnly, "/a")).status, 200);
  assert.equal((await list(t, textOnly, "/a")).status, 403);
  assert.equal((await put(t, viewOnly, "/a", "n.txt", "n")).status, 403);
  assert.equal((await put(t, uploader, "/a", "n.txt", "n")).status, 201);
  const rn = (auth: string) =>
    t.request("/api/fs/rename", {
      method: "POST",
      auth,
      json: { oldPath: "/a/n.txt", newPath: "/a/m.txt" },
    });
  assert.equal((await rn(uploader)).status, 403);
  assert.equal((await rn(renamer)).status, 200);
  const rm = (auth: string, path: string) =>
    t.request("/api/fs/batch-remove", { method: "DELETE", auth, json: { paths: [path] } });
  assert.equal((await rm(renamer, "/a/m.txt")).status, 403);
  assert.equal((await rm(deleter, "/a/m.txt")).status, 200);

  // A key based at /a sees /a, not /ab, and the root lists only what it may reach.
  assert.deepEqual((await list(t, inA, "/")).names, ["a"]);
  assert.equal((await list(t, inA, "/a")).status, 200);
  for (const path of ["/ab", "/ab/y.txt", "/a/../ab", "/ab/"]) {
    const res = await t.request(`/api/fs/get?path=${encodeURIComponent(path)}`, { auth: inA });
    assert.ok(res.status === 403 || res.status === 400, `${path}: ${res.status}`);
    await res.body?.cancel();
  }
  assert.equal((await put(t, inA, "/ab", "z.txt", "z")).status, 403);
  const dl = await t.request("/api/fs/download?path=/ab/y.txt", { auth: inA });
  assert.equal(dl.status, 403);
  assert.equal(
    dl.headers.get("content-type")?.startsWith("text/plain"),
    true,
    "byte routes answer in plain text",
  );
  await dl.body?.cancel();

  for (const bad of ["/a/../../etc/passwd", "/a/..", "/a\\..\\x", "/a/x\0y", "/a/%2e%2e/x"]) {
    const res = await t.request(`/api/fs/get?path=${encodeURIComponent(bad)}`, { auth: admin });
    assert.ok(res.status === 400 || res.status === 404, `${JSON.stringify(bad)}: ${res.status}`);
    await res.body?.cancel();
  }
  const fd = new FormData();
  fd.set("path", "/a");
  fd.set("filename", "..");
  fd.set("file", new Blob(["x"]), "x.txt");
  const badName = await t.request("/api/fs/upload", { method: "POST", auth: admin, body: fd });
  assert.equal(badName.status, 400, "an explicit '..' file name is refused");
  await badName.body?.cancel();
});

Deno.test("fs access: a key that may only upload finds its mount and uploads, but lists nothing inside", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await mount(t, "/drop");
  await put(t, admin, "/drop", "secret.txt", "s");
  const uploadOnly = (await t.createKey({ mount_upload: true })).auth;
  assert.deepEqual((await list(t, uploadOnly, "/")).names, ["drop"], "the way to the mount");
  const inside = await list(t, uploadOnly, "/drop");
  assert.equal(inside.status, 403, "what the mount holds needs the view bit");
  assert.equal(inside.body.error, "api_key_permission_denied");
  assert.equal((await put(t, uploadOnly, "/drop", "mine.txt", "m")).status, 201);
  assert.deepEqual((await list(t, admin, "/drop")).names, ["mine.txt", "secret.txt"]);
});

Deno.test("an s3rver-backed mount with 2,500 objects in one folder lists completely", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const admin = await t.adminAuth();
  const cfg = await t.createS3rverConfig(s3);
  await mount(t, "/bucket", { storage_type: "s3", storage_config_id: cfg.id });
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(cfg.id),
  );
  const names = Array.from({ length: 2500 }, (_, i) => `f${String(i).padStart(5, "0")}.txt`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((n) => driver.put(`big/${n}`, "x")));
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page =
      (await (await t.request(`/api/fs/list?path=/bucket/big${q}`, { auth: admin })).json()).data;
    seen.push(...page.items.map((i: { name: string }) => i.name));
    cursor = page.cursor;
  } while (cursor);
  assert.equal(seen.length, 2500);
  assert.deepEqual(seen, names);
});
