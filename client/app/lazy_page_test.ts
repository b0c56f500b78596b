import assert from "node:assert/strict";
import { isChunkLoadError } from "./lazy_page.ts";

Deno.test("failed dynamic imports are told apart from other errors, in each browser's words", () => {
  for (
    const message of [
      "Failed to fetch dynamically imported module: http://x/assets/chunk-AB.js", // Chromium
      "error loading dynamically imported module: http://x/assets/chunk-AB.js", // Firefox
      "Importing a module script failed.", // Safari
    ]
  ) {
    assert.equal(isChunkLoadError(new TypeError(message)), true, message);
  }
  assert.equal(isChunkLoadError(new TypeError("Cannot read properties of undefined")), false);
  assert.equal(isChunkLoadError("Failed to fetch"), false);
});
