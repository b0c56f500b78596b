import assert from "node:assert/strict";
import { loadConfig } from "./config.ts";

Deno.test("VIEW_FLUSH_MS: 1 s by default, milliseconds from 1 to 60000, anything else refused", () => {
  assert.equal(loadConfig({}).viewFlushMs, 1_000);
  assert.equal(loadConfig({ VIEW_FLUSH_MS: "250" }).viewFlushMs, 250);
  for (const bad of ["0", "-5", "1.5", "abc", "60001"]) {
    assert.throws(() => loadConfig({ VIEW_FLUSH_MS: bad }), /Invalid VIEW_FLUSH_MS/, bad);
  }
});

Deno.test("KV_URL without ENCRYPTION_SECRET is refused with the reason", () => {
  assert.throws(
    () => loadConfig({ KV_URL: "http://127.0.0.1:4512" }),
    /KV_URL is set.*ENCRYPTION_SECRET is not.*same long random value on every instance/s,
  );
  const ok = loadConfig({ KV_URL: "http://127.0.0.1:4512", ENCRYPTION_SECRET: "s" });
  assert.equal(ok.kvUrl, "http://127.0.0.1:4512");
});

Deno.test("TRUST_PROXY: loopback by default; a bad entry stops the start", () => {
  assert.deepEqual(loadConfig({}).trustProxy, ["127.0.0.0/8", "::1/128"]);
  assert.deepEqual(loadConfig({ TRUST_PROXY: "none" }).trustProxy, []);
  assert.throws(() => loadConfig({ TRUST_PROXY: "10.0.0.0/8,proxy.local" }), /Invalid TRUST_PROXY/);
});
