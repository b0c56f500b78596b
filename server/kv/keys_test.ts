import assert from "node:assert/strict";
import { keys, kvKeySize } from "./keys.ts";
import { AppError } from "../errors.ts";
import { tempKv } from "../../tests/helpers/kv.ts";

Deno.test("keys: a key too large for KV is a 400 value_too_long, not a KV TypeError", () => {
  const err = (() => {
    try {
      keys.filesBySlug("x".repeat(3_000));
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof AppError, `got ${err}`);
  assert.equal(err.code, "value_too_long");
  assert.equal(err.status, 400);
  // Multi-byte and NUL characters are counted by their encoded size.
  assert.throws(() => keys.pastesBySlug("é".repeat(1_100)), AppError);
  assert.throws(() => keys.pastesBySlug("\0".repeat(1_100)), AppError);
  assert.doesNotThrow(() => keys.pastesBySlug("é".repeat(900)));
});

Deno.test("keys: the largest key the builders allow is one KV accepts", async () => {
  await using t = await tempKv();
  // Grow a slug until the builder refuses it; the last accepted key must be writable.
  let n = 1_900;
  while (kvKeySize(["files_by_slug", "x".repeat(n + 1)]) <= 2048) n++;
  const key = keys.filesBySlug("x".repeat(n));
  assert.ok((await t.kv.set(key, "id")).ok);
  assert.throws(() => keys.filesBySlug("x".repeat(n + 1)), AppError);
});

Deno.test("keys: kvKeySize counts tags, escapes and fixed-size numbers", () => {
  assert.equal(kvKeySize(["ab"]), 4);
  assert.equal(kvKeySize(["\0"]), 4, "a NUL is escaped");
  assert.equal(kvKeySize([new Uint8Array([0, 1])]), 5);
  assert.equal(kvKeySize([1, 2n, true]), 9 + 18 + 9);
});
