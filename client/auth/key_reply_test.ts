import assert from "node:assert/strict";
import { checkKeyReply } from "./key_reply.ts";

const info = { id: "01K", name: "ci", basic_path: "/" };

Deno.test("key reply: identified, readable and granting something, or which of those failed", () => {
  assert.deepEqual(checkKeyReply({ key_info: info, permission_mask: 3, permissions: {} }), {
    ok: true,
    keyInfo: info,
    mask: 3,
  });
  assert.deepEqual(checkKeyReply({ key_info: info, permissions: { text: true, file: false } }), {
    ok: true,
    keyInfo: info,
    mask: 1,
  });
  for (const reply of [null, "ok", {}, { key_info: { id: 1 } }, { permission_mask: 1 }]) {
    assert.deepEqual(checkKeyReply(reply), { ok: false, code: "api_key_verify_failed" });
  }
  for (const reply of [{ key_info: info }, { key_info: info, permissions: null }]) {
    assert.deepEqual(checkKeyReply(reply), { ok: false, code: "permission_info_failed" });
  }
  for (
    const reply of [{ key_info: info, permission_mask: 0 }, { key_info: info, permissions: {} }]
  ) {
    assert.deepEqual(checkKeyReply(reply), { ok: false, code: "api_key_unauthorized" });
  }
});
