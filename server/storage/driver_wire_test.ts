import assert from "node:assert/strict";
import { contentTypeFor as driverContentType } from "./driver_wire.ts";

Deno.test("the drivers' default type adds a UTF-8 charset to text types only", () => {
  assert.equal(driverContentType("docs/readme.md"), "text/markdown; charset=utf-8");
  assert.equal(driverContentType("site/index.html"), "text/html; charset=utf-8");
  assert.equal(driverContentType("img/logo.svg"), "image/svg+xml");
  assert.equal(driverContentType("blob"), "application/octet-stream");
});
