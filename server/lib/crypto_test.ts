import assert from "node:assert/strict";
import { randomNonce, sha256Hex } from "./crypto.ts";

Deno.test("sha256Hex: known digests of text (UTF-8) and bytes", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(
    sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(sha256Hex("你好"), sha256Hex(new TextEncoder().encode("你好")));
  assert.equal(
    sha256Hex(new Uint8Array([0x61, 0x62, 0x63])),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});

Deno.test("randomNonce: 128 random bits as hex, never the same twice across pool refills", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) { // 16,000 bytes: the 4,096-byte pool is refilled three times
    const nonce = randomNonce();
    assert.match(nonce, /^[0-9a-f]{32}$/);
    seen.add(nonce);
  }
  assert.equal(seen.size, 1000);
});
