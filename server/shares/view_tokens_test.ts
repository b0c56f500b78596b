/** View tokens: HMAC-SHA256 through node:crypto, the same bytes WebCrypto signs. */
import assert from "node:assert/strict";
import { Signer } from "./view_tokens.ts";

const encoder = new TextEncoder();

/** The base64url (unpadded) HMAC-SHA256 of a message, by WebCrypto. */
async function webCryptoMac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return mac.toBase64({ alphabet: "base64url", omitPadding: true });
}

Deno.test("a signer's MACs are WebCrypto's, so tokens issued before still verify", async () => {
  const secret = "sëcret-" + crypto.randomUUID();
  const signer = await Signer.fromSecret(secret);
  for (const message of ["", "paste:01ABC|0|", "file:x|3|hash|1700000000000", "字😀"]) {
    assert.equal(await signer.mac(message), await webCryptoMac(secret, message));
  }
  const exp = Date.now() + 60_000;
  const old = `${exp}.${await webCryptoMac(secret, `file:id|0||${exp}`)}`;
  assert.ok(await signer.verify("file:id|0|", old));
  assert.ok(!await signer.verify("file:id|1|", old), "bound to its subject");
  const expired = `${Date.now() - 1}.${await webCryptoMac(secret, `file:id|0||${Date.now() - 1}`)}`;
  assert.ok(!await signer.verify("file:id|0|", expired), "expired");
});
