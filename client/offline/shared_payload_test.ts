import assert from "node:assert/strict";
import { sharedText } from "./shared_payload.ts";
import { isOpenShare } from "./share_copies.ts";

Deno.test("shared title, text and link become editor text, each once", () => {
  assert.equal(
    sharedText({ title: "T", text: "body", url: "https://a.b/c" }),
    "T\n\nbody\n\nhttps://a.b/c",
  );
  // Android often repeats the link inside the text: it is not added twice.
  assert.equal(
    sharedText({ text: "see https://a.b/c", url: "https://a.b/c" }),
    "see https://a.b/c",
  );
  assert.equal(sharedText({ title: " ", text: "", url: undefined }), "");
});

Deno.test("only shares with no password and no view limit may be kept offline", () => {
  assert.equal(isOpenShare({ slug: "a", has_password: false, max_views: 0 }), true);
  assert.equal(isOpenShare({ slug: "a", has_password: true, max_views: 0 }), false);
  assert.equal(isOpenShare({ slug: "a", has_password: false, max_views: 5 }), false);
  assert.equal(isOpenShare({ slug: "a" }), false);
});
