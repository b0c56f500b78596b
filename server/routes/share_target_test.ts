import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";

Deno.test("POST /share-target without a service worker redirects instead of 404", async () => {
  await using t = await createTestApp();
  const text = new FormData();
  text.set("title", "Title");
  text.set("text", "Some shared text");
  text.set("url", "https://example.com/a?b=1");
  const res = await t.request("/share-target", {
    method: "POST",
    body: text,
    redirect: "manual",
  });
  assert.equal(res.status, 303);
  const to = new URL(res.headers.get("location")!, "http://x");
  assert.equal(to.pathname, "/");
  assert.equal(to.searchParams.get("text"), "Some shared text");
  assert.equal(to.searchParams.get("url"), "https://example.com/a?b=1");
  assert.equal(to.searchParams.get("title"), "Title");

  const files = new FormData();
  files.set("title", "x");
  files.append("files", new File(["hello"], "a.txt", { type: "text/plain" }));
  const up = await t.request("/share-target", { method: "POST", body: files });
  assert.equal(up.status, 303);
  assert.equal(up.headers.get("location"), "/upload");

  const empty = await t.request("/share-target", { method: "POST", body: new FormData() });
  assert.equal(empty.status, 303);
  assert.equal(empty.headers.get("location"), "/");
});
