import assert from "node:assert/strict";
import { ADMIN, createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import { ADMIN_BASIC, basicAuth, mountLocal } from "../../tests/helpers/fs_api.ts";

/** A local mount that WebDAV serves through Cubby (native_proxy). */
function mount(t: TestApp, path: string, extra: Record<string, unknown> = {}) {
  return mountLocal(t, path, { webdav_policy: "native_proxy", ...extra });
}

type Dav = (
  method: string,
  path: string,
  init?: { headers?: Record<string, string>; body?: BodyInit; auth?: string | null },
) => Promise<{ status: number; headers: Headers; text: string }>;

function davClient(t: TestApp): Dav {
  return async (method, path, init = {}) => {
    const headers = new Headers(init.headers);
    const auth = init.auth === undefined ? ADMIN_BASIC : init.auth;
    if (auth) headers.set("authorization", auth);
    const res = await t.request(path, { method, headers, body: init.body });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

/** The status of a COPY or MOVE of `from` to `to`, with `Overwrite: F` when asked. */
async function transfer(
  dav: Dav,
  method: "COPY" | "MOVE",
  from: string,
  to: string,
  overwrite?: "F",
) {
  const headers: Record<string, string> = { destination: to };
  if (overwrite) headers.overwrite = overwrite;
  return (await dav(method, from, { headers })).status;
}

const PROP_BODY = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>` +
  `<D:getcontentlength/><D:resourcetype/><x:color xmlns:x="urn:x"/></D:prop></D:propfind>`;

Deno.test("webdav: every method through the app, with locks, conditions and dead properties", async () => {
  await using t = await createTestApp();
  const dav = davClient(t);
  await mount(t, "/docs");
  const options = await dav("OPTIONS", "/dav/docs/");
  assert.equal(options.status, 200);
  assert.equal(options.headers.get("dav"), "1, 2");
  assert.match(options.headers.get("allow")!, /PROPFIND.*LOCK/);

  // Root lists mounts as folders; infinity is refused clearly.
  const root = await dav("PROPFIND", "/dav/", { headers: { depth: "1" } });
  assert.equal(root.status, 207);
  assert.match(root.text, /<D:href>\/dav\/docs\/<\/D:href>/);
  const inf = await dav("PROPFIND", "/dav/docs/", { headers: { depth: "infinity" } });
  assert.equal(inf.status, 403);
  assert.match(inf.text, /<D:propfind-finite-depth/);

  // MKCOL, PUT, GET with ranges and conditions, HEAD.
  assert.equal((await dav("MKCOL", "/dav/docs/a")).status, 201);
  assert.equal((await dav("MKCOL", "/dav/docs/a")).status, 405);
  assert.equal((await dav("MKCOL", "/dav/docs/x/y")).status, 409);
  assert.equal((await dav("MKCOL", "/dav/docs/b", { body: "junk" })).status, 415);
  assert.equal((await dav("PUT", "/dav/docs/none/f.txt", { body: "x" })).status, 409);
  const put = await dav("PUT", "/dav/docs/a/%E4%BD%A0%E5%A5%BD.txt", { body: "hello world" });
  assert.equal(put.status, 201);
  assert.equal((await dav("PUT", "/dav/docs/a/你好.txt", { body: "hello webdav" })).status, 204);
  const get = await dav("GET", "/dav/docs/a/你好.txt", { headers: { range: "bytes=6-" } });
  assert.equal(get.status, 206);
  assert.equal(get.text, "webdav");
  assert.equal(get.headers.get("content-security-policy"), "sandbox");
  const etag = get.headers.get("etag")!;
  const lastModified = get.headers.get("last-modified")!;
  assert.equal(
    (await dav("GET", "/dav/docs/a/你好.txt", { headers: { "if-none-match": etag } })).status,
    304,
  );
  assert.equal(
    (await dav("GET", "/dav/docs/a/你好.txt", { headers: { "if-modified-since": lastModified } }))
      .status,
    304,
  );
  assert.equal(
    (await dav("GET", "/dav/docs/a/你好.txt", { headers: { "if-match": '"nope"' } })).status,
    412,
  );
  assert.equal(
    (await dav("PUT", "/dav/docs/a/你好.txt", { body: "z", headers: { "if-none-match": "*" } }))
      .status,
    412,
  );
  const head = await dav("HEAD", "/dav/docs/a/你好.txt");
  assert.equal(head.headers.get("content-length"), "12");

  // PROPFIND Depth 1 and PROPPATCH of dead properties (live ones are protected).
  const patch = await dav("PROPPATCH", "/dav/docs/a/你好.txt", {
    body:
      `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:color xmlns:x="urn:x">blue</x:color>` +
      `</D:prop></D:set></D:propertyupdate>`,
  });
  assert.equal(patch.status, 207);
  assert.match(patch.text, /200 OK/);
  const protectedProp = await dav("PROPPATCH", "/dav/docs/a/你好.txt", {
    body: `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getetag>x</D:getetag>` +
      `<x:size xmlns:x="urn:x">1</x:size></D:prop></D:set></D:propertyupdate>`,
  });
  assert.match(protectedProp.text, /403 Forbidden/);
  assert.match(protectedProp.text, /424 Failed Dependency/);
  const listing = await dav("PROPFIND", "/dav/docs/a/", {
    headers: { depth: "1" },
    body: PROP_BODY,
  });
  assert.equal(listing.status, 207);
  assert.match(listing.text, /\/dav\/docs\/a\/%E4%BD%A0%E5%A5%BD\.txt/);
  assert.match(listing.text, /<color xmlns="urn:x">blue<\/color>/);
  assert.match(listing.text, /<D:getcontentlength>12<\/D:getcontentlength>/);
  assert.equal(
    (await dav("PROPFIND", "/dav/docs/a/", { body: "<D:propfind", headers: { depth: "0" } }))
      .status,
    400,
  );

  // COPY and MOVE: 201 new, 204 replaced, 412 with Overwrite: F; properties travel.
  assert.equal(await transfer(dav, "COPY", "/dav/docs/a/你好.txt", "/dav/docs/copy.txt"), 201);
  assert.equal(await transfer(dav, "COPY", "/dav/docs/a/你好.txt", "/dav/docs/copy.txt", "F"), 412);
  assert.equal(await transfer(dav, "COPY", "/dav/docs/a", "http://elsewhere/dav/docs/a2"), 201);
  assert.equal(
    await transfer(dav, "MOVE", "/dav/docs/copy.txt", "/dav/docs/a2/%E4%BD%A0%E5%A5%BD.txt"),
    204,
  );
  const moved = await dav("PROPFIND", "/dav/docs/a2/你好.txt", {
    headers: { depth: "0" },
    body: PROP_BODY,
  });
  assert.match(moved.text, /blue/);
  assert.equal((await dav("GET", "/dav/docs/copy.txt")).status, 404);
  assert.equal(await transfer(dav, "MOVE", "/dav/docs/a2", "/dav/docs/a2/inner"), 403);

  // LOCK: others get 423; the holder writes with the token; refresh; UNLOCK.
  const lockBody = `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>` +
    `<D:locktype><D:write/></D:locktype><D:owner>tester</D:owner></D:lockinfo>`;
  const lock = await dav("LOCK", "/dav/docs/a/你好.txt", {
    body: lockBody,
    headers: { depth: "0" },
  });
  assert.equal(lock.status, 200);
  const token = lock.headers.get("lock-token")!.slice(1, -1);
  assert.match(token, /^opaquelocktoken:/);
  assert.equal((await dav("PUT", "/dav/docs/a/你好.txt", { body: "no" })).status, 423);
  assert.equal(
    (await dav("DELETE", "/dav/docs/a")).status,
    423,
    "a lock below blocks deleting the folder",
  );
  assert.equal((await dav("LOCK", "/dav/docs/a/你好.txt", { body: lockBody })).status, 423);
  assert.equal(
    (await dav("PUT", "/dav/docs/a/你好.txt", { body: "yes", headers: { if: `(<${token}>)` } }))
      .status,
    204,
  );
  assert.equal(
    (await dav("PUT", "/dav/docs/a/你好.txt", {
      body: "no",
      headers: { if: `(<${token}> ["bad"])` },
    })).status,
    412,
  );
  const refresh = await dav("LOCK", "/dav/docs/a/你好.txt", {
    headers: { if: `(<${token}>)`, timeout: "Second-60" },
  });
  assert.equal(refresh.status, 200);
  assert.match(refresh.text, /Second-60/);
  assert.equal(
    (await dav("UNLOCK", "/dav/docs/a/你好.txt", {
      headers: { "lock-token": "<opaquelocktoken:x>" },
    })).status,
    409,
  );
  assert.equal(
    (await dav("UNLOCK", "/dav/docs/a/你好.txt", { headers: { "lock-token": `<${token}>` } }))
      .status,
    204,
  );
  assert.equal((await dav("PUT", "/dav/docs/a/你好.txt", { body: "free" })).status, 204);
  const unmapped = await dav("LOCK", "/dav/docs/new.txt", { body: lockBody });
  assert.equal(unmapped.status, 201);

  // DELETE keeps the parent folder even when its last member goes.
  assert.equal((await dav("DELETE", "/dav/docs/a2/你好.txt")).status, 204);
  assert.equal((await dav("PROPFIND", "/dav/docs/a2/", { headers: { depth: "0" } })).status, 207);
  assert.equal((await dav("DELETE", "/dav/docs/a2")).status, 204);
  assert.equal((await dav("DELETE", "/dav/docs/a2")).status, 404);
  assert.equal((await dav("DELETE", "/dav/docs/")).status, 403, "a mount cannot be deleted");
});

Deno.test("webdav access: anonymous, read-only key, base path /a vs /ab, traversal, wrong passwords", async () => {
  await using t = await createTestApp();
  const dav = davClient(t);
  await mount(t, "/a");
  await mount(t, "/ab");
  assert.equal((await dav("PUT", "/dav/ab/y.txt", { body: "y" })).status, 201);
  const anon = await dav("PROPFIND", "/dav/a/", { auth: null, headers: { depth: "0" } });
  assert.equal(anon.status, 401);
  assert.match(anon.headers.get("www-authenticate")!, /^Basic realm="Cubby"/);

  const reader = (await t.createKey({ webdav_read: true })).key;
  const writer =
    (await t.createKey({ webdav_read: true, webdav_manage: true }, { basic_path: "/a" })).key;
  const noDav = (await t.createKey({ mount_view: true })).key;
  const cases: [string, string, string, string | null, number][] = [
    ["admin", "PUT", "/dav/a/x.txt", ADMIN_BASIC, 201],
    ["reader reads", "GET", "/dav/a/x.txt", basicAuth(reader, reader), 200],
    ["reader via ApiKey header", "PROPFIND", "/dav/a/", `ApiKey ${reader}`, 207],
    ["reader cannot write", "PUT", "/dav/a/r.txt", basicAuth(reader, reader), 403],
    ["key without webdav bits", "GET", "/dav/a/x.txt", basicAuth(noDav, noDav), 403],
    ["writer in its base path", "PUT", "/dav/a/w.txt", basicAuth(writer, writer), 201],
    ["writer outside (/ab)", "GET", "/dav/ab/y.txt", basicAuth(writer, writer), 403],
    ["writer outside (/ab) PUT", "PUT", "/dav/ab/w.txt", basicAuth(writer, writer), 403],
    ["key as user, wrong pass", "GET", "/dav/a/x.txt", basicAuth(reader, "nope"), 401],
  ];
  for (const [name, method, path, auth, status] of cases) {
    const res = await dav(method, path, {
      auth,
      body: method === "PUT" ? "data" : undefined,
      headers: { depth: "0" },
    });
    assert.equal(res.status, status, `${name}: ${res.text}`);
  }
  const rootForWriter = await dav("PROPFIND", "/dav/", {
    auth: basicAuth(writer, writer),
    headers: { depth: "1" },
  });
  assert.match(rootForWriter.text, /\/dav\/a\//);
  assert.doesNotMatch(rootForWriter.text, /\/dav\/ab\//);

  // URL parsing resolves dot segments (also %2e%2e) before us: they cannot leave a base path.
  for (const bad of ["/dav/a/%2e%2e/ab/y.txt", "/dav/a/../ab/y.txt", "/dav/a/.%2E/ab/"]) {
    const res = await dav("GET", bad, { auth: basicAuth(writer, writer) });
    assert.equal(res.status, 403, bad);
  }
  for (const bad of ["/dav/a/x%5c..%5cy", "/dav/a/x%00y", "/dav/a/b%2Fc", "/dav/a/%ff"]) {
    assert.equal((await dav("GET", bad)).status, 400, bad);
  }
  assert.equal(await transfer(dav, "COPY", "/dav/a/x.txt", "/dav/a/x%5cz.txt"), 400);

  // Wrong admin passwords are slowed per address and name (rate_limits_test.ts); a key given
  // as user and password is never refused by them.
  for (let i = 0; i < 10; i++) {
    assert.equal(
      (await dav("GET", "/dav/a/x.txt", { auth: basicAuth("admin", `wrong${i}`) })).status,
      401,
    );
  }
  assert.equal((await dav("GET", "/dav/a/x.txt", { auth: basicAuth(reader, reader) })).status, 200);
  const admin = await dav("GET", "/dav/a/x.txt", { auth: basicAuth("admin", ADMIN.password) });
  assert.equal(admin.status, 200, "after a short hold");
});

Deno.test("webdav policies: 302 to a presigned URL on S3, streaming otherwise; multipart upload mode", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const dav = davClient(t);
  const admin = await t.adminAuth();
  const cfg = await t.createS3rverConfig(s3);
  await mount(t, "/s3", {
    storage_type: "s3",
    storage_config_id: cfg.id,
    webdav_policy: "302_redirect",
  });
  await mount(t, "/s3proxy", { storage_type: "s3", storage_config_id: cfg.id });
  await mount(t, "/disk", { webdav_policy: "302_redirect" });
  assert.equal((await dav("MKCOL", "/dav/s3/in")).status, 201);
  assert.equal((await dav("PUT", "/dav/s3/in/a.txt", { body: "from s3" })).status, 201);
  const redirect = await dav("GET", "/dav/s3/in/a.txt");
  assert.equal(redirect.status, 302);
  const followed = await fetch(redirect.headers.get("location")!);
  assert.equal(await followed.text(), "from s3");
  const proxied = await dav("GET", "/dav/s3proxy/in/a.txt");
  assert.deepEqual([proxied.status, proxied.text], [200, "from s3"]);
  assert.equal(proxied.headers.get("x-content-type-options"), "nosniff");
  assert.equal((await dav("PUT", "/dav/disk/b.txt", { body: "local" })).status, 201);
  assert.equal((await dav("GET", "/dav/disk/b.txt")).text, "local", "local mounts always stream");

  // A Depth 1 listing follows the store's pages: more than 1000 objects, none cut off.
  const driver = await t.services.storageConfigs.driverFor(
    await t.services.storageConfigs.getRecord(cfg.id),
  );
  const names = Array.from({ length: 1005 }, (_, i) => `f${String(i).padStart(4, "0")}`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((n) => driver.put(`many/${n}`, "x")));
  }
  const many = await dav("PROPFIND", "/dav/s3proxy/many/", { headers: { depth: "1" } });
  assert.equal(many.status, 207);
  assert.equal(many.text.match(/<D:response>/g)?.length, 1006);

  const saved = await t.request("/api/admin/settings/group/3", {
    method: "PUT",
    auth: admin,
    json: { webdav_upload_mode: "multipart" },
  });
  assert.equal(saved.status, 200, await saved.text());
  const big = new Uint8Array(11 * 1024 * 1024 + 7).map((_, i) => (i * 31) % 251);
  for (const where of ["/dav/disk/big.bin", "/dav/s3proxy/in/big.bin"]) {
    assert.equal((await dav("PUT", where, { body: big })).status, 201, where);
    const back = await t.request(where, { headers: { authorization: ADMIN_BASIC } });
    assert.deepEqual(new Uint8Array(await back.arrayBuffer()), big, where);
  }
});
