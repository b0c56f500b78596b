import assert from "node:assert/strict";
import { DeviceTokens } from "./device_tokens.ts";

Deno.test("device tokens: bound to the username and the secret, and they expire", () => {
  const tokens = new DeviceTokens("secret-a");
  const token = tokens.issue("admin");
  const id = tokens.verify(token, "admin");
  assert.ok(id && token.startsWith(`${id}.`));
  // Another instance sharing the secret (it lives in KV) accepts it; another secret does not.
  assert.equal(new DeviceTokens("secret-a").verify(token, "admin"), id);
  assert.equal(new DeviceTokens("secret-b").verify(token, "admin"), null);
  assert.equal(tokens.verify(token, "Admin"), null, "names are compared exactly");
  assert.equal(tokens.verify(token, "root"), null);
  const [, exp, mac] = token.split(".");
  for (
    const bad of [
      undefined,
      "",
      "junk",
      `other.${exp}.${mac}`,
      `${id}.${Number(exp) + 1}.${mac}`,
      `${id}.${exp}.${mac.slice(1)}x`,
      `${token}.x`,
    ]
  ) {
    assert.equal(tokens.verify(bad, "admin"), null, String(bad));
  }
  assert.notEqual(tokens.issue("admin").split(".")[0], id, "each login gets a new device id");

  // A token past its lifetime (issued here already expired) is refused.
  const expired = new DeviceTokens("secret-a", -1).issue("admin");
  assert.equal(tokens.verify(expired, "admin"), null);
});
