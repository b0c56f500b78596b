import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { proxyLinkMessage } from "../fs/proxy_links.ts";
import { mountLocal, uploadToMount } from "../../tests/helpers/fs_api.ts";

async function updateMount(t: TestApp, id: string, patch: Record<string, unknown>) {
  const res = await t.request(`/api/mount/${id}`, {
    method: "PUT",
    auth: await t.adminAuth(),
    json: patch,
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

async function setProxySign(t: TestApp, all: boolean, expires = 0) {
  const res = await t.request("/api/admin/settings/group/1", {
    method: "PUT",
    auth: await t.adminAuth(),
    json: { proxy_sign_all: all, proxy_sign_expires: expires },
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

async function get(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await t.request(url, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Asks for a file's proxy link as `auth`; returns the status and the link's path and query. */
async function linkOf(t: TestApp, auth: string, path: string) {
  const res = await t.request(`/api/fs/proxy-link?path=${encodeURIComponent(path)}`, { auth });
  const body = await res.json();
  if (res.status !== 200) return { status: res.status, error: body.error, url: "", data: null };
  const url = new URL(body.data.url);
  return { status: res.status, error: null, url: url.pathname + url.search, data: body.data };
}

Deno.test("proxy links: off → 404; on and unsigned → streamed with ranges and user-content headers", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await setProxySign(t, false);
  const m = await mountLocal(t, "/pub");
  await uploadToMount(t, "/pub", "hello.txt", "hello proxy");
  await uploadToMount(t, "/pub/sub dir", "文 件.txt", "unicode");

  const off = await get(t, "/api/p/pub/hello.txt");
  assert.equal(off.status, 404, "web proxy off");
  assert.match(off.headers.get("content-type")!, /^text\/plain/, "errors are plain text");
  const noLink = await linkOf(t, admin, "/pub/hello.txt");
  assert.deepEqual([noLink.status, noLink.error], [400, "web_proxy_disabled"]);

  await updateMount(t, m.id, { web_proxy: true });
  const full = await get(t, "/api/p/pub/hello.txt");
  assert.equal(full.status, 200);
  assert.equal(full.text, "hello proxy");
  assert.equal(full.headers.get("content-security-policy"), "sandbox");
  assert.equal(full.headers.get("x-content-type-options"), "nosniff");
  assert.equal(full.headers.get("accept-ranges"), "bytes");
  assert.match(full.headers.get("content-disposition")!, /^inline/);

  const part = await get(t, "/api/p/pub/hello.txt", { range: "bytes=6-10" });
  assert.equal(part.status, 206);
  assert.equal(part.text, "proxy");
  assert.equal(part.headers.get("content-range"), "bytes 6-10/11");
  const tail = await get(t, "/api/p/pub/hello.txt", { range: "bytes=-5" });
  assert.deepEqual([tail.status, tail.text], [206, "proxy"]);
  assert.equal((await get(t, "/api/p/pub/hello.txt", { range: "bytes=99-" })).status, 416);

  const head = await t.request("/api/p/pub/hello.txt", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), "11");
  assert.equal(await head.text(), "");

  const link = await linkOf(t, admin, "/pub/sub dir/文 件.txt");
  assert.equal(link.status, 200);
  assert.equal(link.data.signed, false);
  assert.equal(link.url, "/api/p/pub/sub%20dir/%E6%96%87%20%E4%BB%B6.txt");
  assert.equal((await get(t, link.url)).text, "unicode");

  for (
    const missing of ["/api/p/pub/nope.txt", "/api/p/pub/sub%20dir", "/api/p/pub", "/api/p/"]
  ) {
    const res = await get(t, missing);
    assert.equal(res.status, 404, missing);
  }
  for (
    const bad of [
      "/api/p/pub/..%2F..%2Fpub/hello.txt",
      "/api/p/pub/sub%20dir%2F..%2F..%2Fpub/hello.txt",
      "/api/p/pub/a%5Cb",
      "/api/p/pub/a%00b",
      "/api/p/%E0",
    ]
  ) {
    const res = await get(t, bad);
    assert.equal(res.status, 400, bad);
    assert.match(res.headers.get("content-type")!, /^text\/plain/);
  }
  // Plain `%2e%2e` segments are resolved by the URL parser before routing: they never
  // leave /api/p, and here land on a mount that does not exist.
  assert.equal((await get(t, "/api/p/pub/%2e%2e/hello.txt")).status, 404);
});

Deno.test("proxy links: signed when required → 401 without, 403 tampered or expired, 200 valid", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const m = await mountLocal(t, "/sec", { web_proxy: true }); // proxy_sign_all is on by default
  await uploadToMount(t, "/sec", "a.txt", "secret a");
  await uploadToMount(t, "/sec", "b.txt", "secret b");

  assert.equal((await get(t, "/api/p/sec/a.txt")).status, 401);
  const link = await linkOf(t, admin, "/sec/a.txt");
  assert.equal(link.status, 200);
  assert.equal(link.data.signed, true);
  assert.equal(link.data.expires_at, null, "sign_expires 0 means never");
  const ok = await get(t, link.url);
  assert.deepEqual([ok.status, ok.text], [200, "secret a"]);
  const sign = new URL(link.url, "http://x").searchParams.get("sign")!;

  const flip = (s: string) => s.slice(0, -1) + (s.endsWith("A") ? "B" : "A");
  for (
    const bad of [
      `/api/p/sec/a.txt?sign=${encodeURIComponent(flip(sign))}`,
      `/api/p/sec/b.txt?sign=${encodeURIComponent(sign)}`, // another file's signature
      `/api/p/sec/a.txt?sign=${encodeURIComponent(sign.replace(/^0\./, "1."))}`,
      "/api/p/sec/a.txt?sign=garbage",
      "/api/p/sec/a.txt?sign=.",
    ]
  ) {
    assert.equal((await get(t, bad)).status, 403, bad);
  }

  // A link that expired, with a valid MAC, is refused.
  const past = Date.now() - 1000;
  const mac = await t.services.signer.mac(proxyLinkMessage(m, "/sec/a.txt", past));
  const expired = await get(t, `/api/p/sec/a.txt?sign=${past}.${mac}`);
  assert.equal(expired.status, 403);
  assert.equal(expired.headers.get("x-error-code"), "storage_signature_expired");

  // With a lifetime set, links expire, and a never-expiring one is no longer accepted.
  await updateMount(t, m.id, { sign_expires: 60 });
  const timed = await linkOf(t, admin, "/sec/a.txt");
  const exp = Date.parse(timed.data.expires_at);
  assert.ok(exp > Date.now() + 50_000 && exp <= Date.now() + 60_000, timed.data.expires_at);
  assert.equal((await get(t, timed.url)).status, 200);
  assert.equal((await get(t, link.url)).status, 403, "the old never-expiring link");
  const far = Date.now() + 3600_000;
  const farMac = await t.services.signer.mac(proxyLinkMessage(m, "/sec/a.txt", far));
  assert.equal((await get(t, `/api/p/sec/a.txt?sign=${far}.${farMac}`)).status, 403);

  // The setting's lifetime applies when the mount has none.
  await updateMount(t, m.id, { sign_expires: 0 });
  await setProxySign(t, true, 120);
  const global = await linkOf(t, admin, "/sec/a.txt");
  assert.ok(Date.parse(global.data.expires_at) > Date.now() + 60_000);
  assert.equal((await get(t, global.url)).status, 200);

  // proxy_sign_all off: the mount's own enable_sign still requires a signature.
  await setProxySign(t, false);
  await updateMount(t, m.id, { enable_sign: true });
  assert.equal((await get(t, "/api/p/sec/a.txt")).status, 401);
  assert.equal((await get(t, (await linkOf(t, admin, "/sec/a.txt")).url)).status, 200);
  await updateMount(t, m.id, { enable_sign: false });
  assert.equal((await get(t, "/api/p/sec/a.txt")).status, 200, "no signing: open link");
});

Deno.test("proxy-link access: MOUNT_VIEW, base path /a vs /ab, traversal, missing files", async () => {
  await using t = await createTestApp();
  await setProxySign(t, false);
  await mountLocal(t, "/a", { web_proxy: true });
  await mountLocal(t, "/ab", { web_proxy: true });
  await uploadToMount(t, "/a", "x.txt", "x");
  const viewer = (await t.createKey({ mount_view: true })).auth;
  const uploadOnly = (await t.createKey({ mount_upload: true })).auth;
  const inA = (await t.createKey({ mount_view: true }, { basic_path: "/a" })).auth;

  const anon = await t.request("/api/fs/proxy-link?path=/a/x.txt");
  assert.equal(anon.status, 401);
  await anon.body?.cancel();
  assert.equal((await linkOf(t, uploadOnly, "/a/x.txt")).status, 403);
  assert.equal((await linkOf(t, viewer, "/a/x.txt")).status, 200);
  assert.equal((await linkOf(t, inA, "/a/x.txt")).status, 200);
  assert.equal((await linkOf(t, inA, "/ab/x.txt")).status, 403, "/a does not cover /ab");
  assert.equal((await linkOf(t, inA, "/a/../ab/x.txt")).status, 400);
  assert.equal((await linkOf(t, viewer, "/a/missing.txt")).status, 404);
  assert.equal((await linkOf(t, viewer, "/a")).status, 400);
  const noPath = await t.request("/api/fs/proxy-link", { auth: viewer });
  assert.equal(noPath.status, 400);
  await noPath.body?.cancel();

  // The public link itself needs no key: anyone holding it may read (that is the point).
  assert.equal((await get(t, "/api/p/ab/x.txt")).text, "x");
});

Deno.test("proxy links are bound to their mount and its storage: a replaced or re-pointed mount refuses old links", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  const otherId = (await t.createLocalConfig("other")).id;

  const m = await mountLocal(t, "/sec", { web_proxy: true });
  await uploadToMount(t, "/sec", "a.txt", "first storage");
  const link = await linkOf(t, admin, "/sec/a.txt");
  assert.equal((await get(t, link.url)).text, "first storage");

  // The same mount, pointed at another storage holding another a.txt: the link is refused.
  await updateMount(t, m.id, { storage_config_id: otherId });
  await uploadToMount(t, "/sec", "a.txt", "second storage");
  const repointed = await get(t, link.url);
  assert.equal(repointed.status, 403, repointed.text);
  assert.equal(repointed.headers.get("x-error-code"), "storage_signature_invalid");
  const fresh = await linkOf(t, admin, "/sec/a.txt");
  assert.equal((await get(t, fresh.url)).text, "second storage");

  // A new mount at the same path (same storage, same file) does not honour the old mount's link.
  const del = await t.request(`/api/mount/${m.id}`, { method: "DELETE", auth: admin });
  assert.equal(del.status, 200, await del.clone().text());
  await del.body?.cancel();
  await mountLocal(t, "/sec", { web_proxy: true, storage_config_id: otherId });
  assert.equal((await get(t, fresh.url)).status, 403, "link of the deleted mount");
  const again = await linkOf(t, admin, "/sec/a.txt");
  assert.equal((await get(t, again.url)).status, 200);
});
