/**
 * The max upload size covers every upload: the explorer's streamed upload, its multipart and
 * presigned uploads, and WebDAV PUT answer 413 file_too_large naming the limit, and nothing
 * over the limit stays in the mount.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { ADMIN_BASIC, mountLocal, postMountFile } from "../../tests/helpers/fs_api.ts";

const EN = { "accept-language": "en-US" };
const LIMIT_TEXT = "The file exceeds the size limit (1 KB per upload)";

async function limitTo1KB(t: TestApp) {
  const res = await t.request("/api/admin/settings/group/1", {
    method: "PUT",
    auth: await t.adminAuth(),
    json: { max_upload_size: 1, max_upload_size_unit: "KB" },
  });
  assert.equal(res.status, 200, await res.text());
}

async function names(t: TestApp, path: string): Promise<string[]> {
  const res = await t.request(`/api/fs/list?path=${encodeURIComponent(path)}&refresh=true`, {
    auth: await t.adminAuth(),
  });
  return (await res.json()).data.items.map((i: { name: string }) => i.name);
}

async function expect413(res: Response, label: string) {
  const body = await res.json();
  assert.equal(res.status, 413, `${label}: ${JSON.stringify(body)}`);
  assert.equal(body.error, "file_too_large", label);
  assert.equal(body.message, LIMIT_TEXT, label);
  assert.equal(body.data.max_bytes, 1024, label);
}

Deno.test("explorer uploads: over the max upload size is 413 with the limit, on every path", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/m");
  await limitTo1KB(t);
  const admin = await t.adminAuth();
  const big = new Uint8Array(2048).fill(65);

  // Streamed through Cubby (no size announced: cut off at the limit).
  const fd = new FormData();
  fd.set("path", "/m");
  fd.set("file", new Blob([big]), "streamed.bin");
  await expect413(
    await t.request("/api/fs/upload", { method: "POST", auth: admin, headers: EN, body: fd }),
    "fs/upload",
  );
  // Announced size, multipart and presign: refused before anything is stored.
  const post = (path: string, json: unknown) =>
    t.request(path, { method: "POST", auth: admin, headers: EN, json });
  await expect413(
    await post("/api/fs/multipart/init", { path: "/m/parts.bin", size: 2048 }),
    "init",
  );
  await expect413(await post("/api/fs/presign", { path: "/m/direct.bin", size: 2048 }), "presign");

  // A presigned PUT that sends more than it announced is deleted at its commit.
  const pre = await post("/api/fs/presign", { path: "/m/liar.bin" });
  assert.equal(pre.status, 200, await pre.clone().text());
  const { upload_url } = (await pre.json()).data;
  const put = await t.request(
    new URL(upload_url, "http://127.0.0.1").pathname +
      new URL(upload_url, "http://127.0.0.1").search,
    { method: "PUT", body: big },
  );
  assert.ok(put.status < 300, `PUT ${put.status}`);
  await put.body?.cancel();
  await expect413(await post("/api/fs/presign/commit", { path: "/m/liar.bin" }), "commit");

  assert.deepEqual(await names(t, "/m"), [], "nothing over the limit stays");
  // Within the limit all is well.
  assert.equal((await postMountFile(t, "/m", "small.txt", "x".repeat(1024))).status, 201);
});

Deno.test("WebDAV PUT over the max upload size is 413 naming the limit, in both upload modes", async () => {
  await using t = await createTestApp();
  await mountLocal(t, "/d", { webdav_policy: "native_proxy" });
  await limitTo1KB(t);
  const big = new Uint8Array(4096).fill(66);
  for (const mode of ["direct", "multipart"]) {
    const set = await t.request("/api/admin/settings/group/3", {
      method: "PUT",
      auth: await t.adminAuth(),
      json: { webdav_upload_mode: mode },
    });
    assert.equal(set.status, 200);
    for (
      const [label, body] of [
        ["announced", big],
        [
          "chunked",
          new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(big.subarray(0, 2048));
              c.enqueue(big.subarray(2048));
              c.close();
            },
          }),
        ],
      ] as const
    ) {
      const res = await t.request(`/dav/d/${mode}-${label}.bin`, {
        method: "PUT",
        headers: { authorization: ADMIN_BASIC, ...EN },
        body,
      });
      assert.equal(res.status, 413, `${mode} ${label}`);
      assert.equal(await res.text(), LIMIT_TEXT, `${mode} ${label}`);
    }
  }
  assert.deepEqual(await names(t, "/d"), []);
  const ok = await t.request("/dav/d/small.txt", {
    method: "PUT",
    headers: { authorization: ADMIN_BASIC },
    body: "fits",
  });
  assert.equal(ok.status, 201);
});
