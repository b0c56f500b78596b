/**
 * Malformed input answers a clear 4xx with an error code, never 500 (issue 8, finding 5): an
 * oversized slug or id on every route that takes one, malformed percent-encoding, and names
 * longer than a filesystem holds, through WebDAV and the explorer API.
 */
import assert from "node:assert/strict";
import { ADMIN, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { ERROR_CATALOGUE } from "../../shared/errors.ts";

const LONG = "a".repeat(3_000);
const NAME_300 = "n".repeat(300);
const ADMIN_BASIC = `Basic ${btoa(`${ADMIN.username}:${ADMIN.password}`)}`;

/** Asserts a 4xx whose error code is in the catalogue (JSON envelope or plain X-Error-Code). */
async function assertClientError(res: Response, label: string, json: boolean) {
  assert.ok(res.status >= 400 && res.status < 500, `${label}: status ${res.status}`);
  const type = res.headers.get("content-type") ?? "";
  if (json) {
    assert.match(type, /^application\/json/, label);
    const body = await res.json();
    assert.equal(body.success, false, label);
    assert.equal(body.code, res.status, label);
    assert.ok(body.error in ERROR_CATALOGUE, `${label}: ${body.error}`);
    return body.error as string;
  }
  await res.body?.cancel();
  const code = res.headers.get("x-error-code") ?? "";
  assert.ok(code in ERROR_CATALOGUE, `${label}: X-Error-Code ${code}`);
  return code;
}

async function withApp(fn: (t: TestApp, admin: string) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t, await t.adminAuth());
}

Deno.test("a 3,000-character slug or id is a 4xx on every route that takes one", async () => {
  await withApp(async (t, admin) => {
    await t.createMount("/m");
    const cases: [string, string, boolean][] = [
      ["GET", `/api/public/files/${LONG}`, true],
      ["POST", `/api/public/files/${LONG}/verify`, true],
      ["GET", `/api/office-preview/${LONG}`, true],
      ["GET", `/api/file-view/${LONG}`, false],
      ["HEAD", `/api/file-view/${LONG}`, false],
      ["GET", `/api/file-download/${LONG}`, false],
      ["GET", `/api/paste/${LONG}`, true],
      ["POST", `/api/paste/${LONG}`, true],
      ["GET", `/api/raw/${LONG}`, false],
      ["GET", `/api/pastes/${LONG}`, true],
      ["PUT", `/api/pastes/${LONG}`, true],
      ["GET", `/api/files/${LONG}`, true],
      ["PUT", `/api/files/${LONG}`, true],
      ["PUT", `/api/admin/api-keys/${LONG}`, true],
      ["DELETE", `/api/admin/api-keys/${LONG}`, true],
      ["GET", `/api/s3-configs/${LONG}`, true],
      ["PUT", `/api/s3-configs/${LONG}/set-default`, true],
      ["POST", `/api/s3-configs/${LONG}/test`, true],
      ["DELETE", `/api/s3-configs/${LONG}`, true],
      ["PUT", `/api/mount/${LONG}`, true],
      ["DELETE", `/api/mount/${LONG}`, true],
      ["GET", `/api/fs/tasks/${LONG}`, true],
      ["POST", `/api/fs/tasks/${LONG}/cancel`, true],
      ["GET", `/api/storage/local/${LONG}/x.txt`, false],
      ["GET", `/api/p/m/${LONG}`, false],
      ["GET", `/api/fs/search?q=ab&mount_id=${LONG}`, true],
    ];
    for (const [method, path, json] of cases) {
      const body = method === "GET" || method === "HEAD" ? undefined : "{}";
      const res = await t.request(path, {
        method,
        auth: admin,
        body,
        headers: body ? { "content-type": "application/json" } : {},
      });
      if (method === "HEAD") {
        assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status}`);
        await res.body?.cancel();
        continue;
      }
      await assertClientError(res, `${method} ${path.slice(0, 40)}`, json);
    }
    // Share pages render "not found" rather than failing.
    const page = await t.request(`/file/${LONG}`);
    assert.equal(page.status, 404);
    await page.body?.cancel();
  });
});

Deno.test("malformed percent-encoding under /assets/ and /icons/ is 400 url_malformed", async () => {
  await withApp(async (t) => {
    for (const path of ["/assets/%E0%A4%A.js", "/assets/%ZZ", "/icons/%"]) {
      const res = await t.request(path);
      assert.equal(res.status, 400, path);
      assert.equal(await assertClientError(res, path, false), "url_malformed");
    }
  });
});

Deno.test("a name over 255 bytes is 400 name_too_long through WebDAV and fs routes", async () => {
  await withApp(async (t, admin) => {
    await t.createMount("/m");
    const dav = (method: string, path: string, body?: string) =>
      t.request(path, { method, auth: ADMIN_BASIC, body });
    const propfind = await dav("PROPFIND", `/dav/m/${NAME_300}`);
    assert.ok(propfind.status >= 400 && propfind.status < 500, `PROPFIND ${propfind.status}`);
    await propfind.body?.cancel();
    for (const method of ["GET", "PUT", "DELETE", "MKCOL"]) {
      const res = await dav(method, `/dav/m/${NAME_300}`, method === "PUT" ? "x" : undefined);
      assert.equal(res.status, 400, method);
      assert.equal(await assertClientError(res, `DAV ${method}`, false), "name_too_long");
    }
    const head = await dav("HEAD", `/dav/m/${NAME_300}`);
    assert.equal(head.status, 400);
    assert.equal(head.headers.get("x-error-code"), "name_too_long");
    await head.body?.cancel();
    const move = await t.request("/dav/m/a.txt", { method: "PUT", auth: ADMIN_BASIC, body: "a" });
    assert.equal(move.status, 201);
    const moved = await t.request("/dav/m/a.txt", {
      method: "MOVE",
      auth: ADMIN_BASIC,
      headers: { destination: `/dav/m/${NAME_300}` },
    });
    assert.equal(moved.status, 400);
    assert.equal(await assertClientError(moved, "DAV MOVE", false), "name_too_long");

    const path = encodeURIComponent(`/m/${NAME_300}`);
    for (const url of [`/api/fs/get?path=${path}`, `/api/fs/list?path=${path}`]) {
      const res = await t.request(url, { auth: admin });
      assert.equal(res.status, 400, url);
      assert.equal(await assertClientError(res, url, true), "name_too_long", url);
    }
    const download = await t.request(`/api/fs/download?path=${path}`, { auth: admin });
    assert.equal(download.status, 400);
    assert.equal(await assertClientError(download, "fs/download", false), "name_too_long");
    for (
      const [url, json] of [
        ["/api/fs/update", { path: `/m/${NAME_300}`, content: "x" }],
        ["/api/fs/mkdir", { path: `/m/${NAME_300}` }],
        ["/api/fs/rename", { oldPath: "/m/a.txt", newPath: `/m/${NAME_300}` }],
      ] as const
    ) {
      const res = await t.request(url, { method: "POST", auth: admin, json });
      assert.equal(res.status, 400, url);
      assert.equal(await assertClientError(res, url, true), "name_too_long", url);
    }
    // A name of exactly 255 bytes still works.
    const ok = await t.request(`/dav/m/${"n".repeat(255)}`, {
      method: "PUT",
      auth: ADMIN_BASIC,
      body: "fits",
    });
    assert.equal(ok.status, 201);
  });
});

Deno.test("oversized values in JSON bodies that reach KV keys are 4xx, not 500", async () => {
  await withApp(async (t, admin) => {
    const cases: [string, string, unknown][] = [
      ["POST", "/api/pastes/batch-delete", { ids: [LONG] }],
      ["POST", "/api/files/batch-delete", { ids: [LONG] }],
      ["POST", "/api/s3/commit", { file_id: LONG, filename: "a", size: 1 }],
      ["POST", "/api/fs/create-share", { path: `/x/${LONG}` }],
      ["POST", "/api/admin/login", { username: LONG, password: "x" }],
    ];
    for (const [method, url, json] of cases) {
      const res = await t.request(url, { method, auth: admin, json });
      await assertClientError(res, url, true);
    }
  });
});
