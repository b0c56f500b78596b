/** Every kind of response carries the security headers once: context-built and handler-built. */
import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";

Deno.test("security headers on JSON, HTML, plain-text errors, raw bytes and static files", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/paste", {
    method: "POST",
    auth: await t.adminAuth(),
    json: { content: "hello" },
  });
  const { slug } = (await res.json()).data;
  const paths = [
    "/api/version", // c.json
    "/api/nope", // error funnel
    `/paste/${slug}`, // SSR document
    `/api/raw/${slug}`, // byte route
    "/api/raw/missing1", // plain-text error
    "/favicon.svg", // a handler's own Response (static file) or the page fallback
  ];
  for (const path of paths) {
    const r = await t.request(path);
    await r.body?.cancel();
    assert.equal(r.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(r.headers.get("referrer-policy"), "strict-origin-when-cross-origin", path);
    assert.equal(r.headers.get("x-frame-options"), "SAMEORIGIN", path);
  }
});
