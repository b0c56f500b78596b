import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";
import { isForbiddenAddress } from "../services/url_fetch.ts";

function startOrigin(payload: Uint8Array) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/redirect-private") {
      return new Response(null, { status: 302, headers: { location: "http://10.0.0.1/x" } });
    }
    if (path === "/redirect") {
      return new Response(null, { status: 302, headers: { location: "/files/photo.png" } });
    }
    return new Response(req.method === "HEAD" ? null : payload as BodyInit, {
      headers: { "content-type": "image/png", "content-length": String(payload.length) },
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

Deno.test("forbidden addresses: loopback, private, link-local, metadata, unique-local, mapped", () => {
  const forbidden = [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fc00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "224.0.0.1",
  ];
  for (const a of forbidden) assert.equal(isForbiddenAddress(a), true, a);
  assert.equal(isForbiddenAddress("93.184.216.34"), false);
  assert.equal(isForbiddenAddress("2606:2800:220:1::1"), false);
  assert.equal(isForbiddenAddress("127.0.0.1", true), false, "tests may allow loopback");
});

Deno.test("URL upload refuses loopback and private targets unless explicitly allowed", async () => {
  const origin = startOrigin(new Uint8Array([1, 2, 3]));
  const t = await createTestApp();
  try {
    const admin = await t.adminAuth();
    for (
      const url of [
        `${origin.url}/a.png`,
        "http://169.254.169.254/latest/meta-data",
        "file:///etc/passwd",
        "http://[::1]/",
      ]
    ) {
      const res = await t.request("/api/url/info", { method: "POST", auth: admin, json: { url } });
      assert.equal(res.status, 400, url);
      const code = (await res.json()).error;
      assert.ok(code === "url_forbidden" || code === "url_invalid", `${url}: ${code}`);
    }
    const proxy = await t.request(
      `/api/url/proxy?url=${encodeURIComponent(`${origin.url}/a.png`)}`,
      { auth: admin },
    );
    assert.equal(proxy.status, 400);
    await proxy.body?.cancel();
    const anon = await t.request("/api/url/info", {
      method: "POST",
      json: { url: "https://example.com" },
    });
    assert.equal(anon.status, 401, "URL upload requires auth");
    await anon.body?.cancel();
  } finally {
    await t.close();
    await origin.stop();
  }
});

Deno.test("URL upload: info, guarded proxy with redirects, then presign and commit", async () => {
  const payload = crypto.getRandomValues(new Uint8Array(20_000));
  const origin = startOrigin(payload);
  const t = await createTestApp({ CUBBY_ALLOW_LOOPBACK_FETCH: "1" });
  try {
    const admin = await t.adminAuth();
    const info = await t.request("/api/url/info", {
      method: "POST",
      auth: admin,
      json: { url: `${origin.url}/redirect` },
    });
    const data = (await info.json()).data;
    assert.equal(data.filename, "photo.png");
    assert.equal(data.size, payload.length);
    assert.equal(data.content_type, "image/png");

    const blocked = await t.request(
      `/api/url/proxy?url=${encodeURIComponent(`${origin.url}/redirect-private`)}`,
      {
        auth: admin,
      },
    );
    assert.equal(blocked.status, 400, "a redirect to a private address is refused");
    await blocked.body?.cancel();

    const proxied = await t.request(
      `/api/url/proxy?url=${encodeURIComponent(`${origin.url}/redirect`)}`,
      {
        auth: admin,
      },
    );
    assert.equal(proxied.status, 200);
    assert.equal(proxied.headers.get("content-security-policy"), "sandbox");
    const bytes = new Uint8Array(await proxied.arrayBuffer());
    assert.deepEqual(bytes, payload);

    const pre = (await (await t.request("/api/url/presign", {
      method: "POST",
      auth: admin,
      json: { filename: data.filename, size: bytes.length, mimetype: data.content_type },
    })).json()).data;
    assert.equal(
      (await t.request(pre.upload_url, { method: "PUT", body: bytes as BodyInit })).status,
      200,
    );
    const commit = await t.request("/api/url/commit", {
      method: "POST",
      auth: admin,
      json: { file_id: pre.file_id },
    });
    assert.equal(commit.status, 201);
    const slug = (await commit.json()).data.slug;
    const dl = await t.request(`/api/file-download/${slug}`);
    assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), payload);

    const pre2 = (await (await t.request("/api/url/presign", {
      method: "POST",
      auth: admin,
      json: { filename: "x.bin", size: 10 },
    })).json()).data;
    const cancel = await t.request("/api/url/cancel", {
      method: "POST",
      auth: admin,
      json: { file_id: pre2.file_id },
    });
    assert.equal(cancel.status, 200);
    assert.equal(
      await t.statusOf("POST", "/api/url/commit", admin, { file_id: pre2.file_id }),
      404,
    );
  } finally {
    await t.close();
    await origin.stop();
  }
});

Deno.test("GET /api/url/proxy answers its auth errors as plain text, like its other errors", async () => {
  await using t = await createTestApp();
  const url = `/api/url/proxy?url=${encodeURIComponent("http://127.0.0.1:9/x")}`;
  const anonymous = await t.request(url);
  assert.equal(anonymous.status, 401);
  assert.match(anonymous.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(anonymous.headers.get("x-error-code"), "unauthorized");
  assert.equal(await anonymous.text(), "未授权访问，请登录后重试");
  const textOnly = await t.createKey({ text: true });
  const denied = await t.request(url, { auth: textOnly.auth });
  assert.equal(denied.status, 403);
  assert.match(denied.headers.get("content-type") ?? "", /^text\/plain/);
  assert.equal(denied.headers.get("x-error-code"), "api_key_permission_denied");
  await denied.body?.cancel();
});
