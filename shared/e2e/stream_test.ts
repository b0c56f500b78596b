/**
 * The stream's properties beyond the vectors: any chunking of the input gives the same bytes,
 * any byte range made on its own fits the whole (upload parts), sizes map both ways, and the
 * helpers refuse what is not canonical.
 */
import assert from "node:assert/strict";
import { ByteQueue, concatBytes, fromBase64Url, toBase64Url } from "./bytes.ts";
import { encodeLinkKey, newLinkKey, parseLinkKey, shareSecret } from "./keys.ts";
import { decryptText, encryptText } from "./payloads.ts";
import {
  ciphertextSize,
  decryptStream,
  E2EError,
  encryptBytes,
  encryptRange,
  encryptStream,
  makeHeader,
  plaintextSize,
  RecordCipher,
} from "./stream.ts";

/** A seeded byte generator (xorshift), so failures repeat. */
function seeded(seed: number) {
  let x = seed || 1;
  return (n: number) =>
    Uint8Array.from({ length: n }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 255;
    });
}

/** Pushes `bytes` through `transform` in chunks of random sizes; returns the output. */
async function through(
  transform: TransformStream<Uint8Array, Uint8Array>,
  bytes: Uint8Array,
  rand: (n: number) => Uint8Array,
) {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = 1 + (rand(1)[0] * 37) % 300;
    chunks.push(bytes.slice(at, at + n));
    at += n;
  }
  const out: Uint8Array[] = [];
  await ReadableStream.from(chunks).pipeThrough(transform)
    .pipeTo(new WritableStream({ write: (c) => void out.push(c) }));
  return concatBytes(out);
}

Deno.test("streamed encryption equals whole encryption, and decrypts back, for any chunking", async () => {
  const rand = seeded(7);
  const secret = await shareSecret(newLinkKey(), "pw");
  for (const size of [0, 1, 63, 64, 65, 128, 1000]) {
    const plain = rand(size);
    const header = makeHeader(64);
    const whole = await encryptBytes(secret, plain, header);
    assert.equal(whole.length, ciphertextSize(size, 64), `size ${size}`);
    assert.equal(plaintextSize(whole.length, 64), size);
    assert.deepEqual(await through(encryptStream(secret, header), plain, rand), whole);
    assert.deepEqual(await through(decryptStream(secret), whole, rand), plain);
  }
});

Deno.test("every byte range made on its own is the same bytes as in the whole stream", async () => {
  const rand = seeded(11);
  const secret = await shareSecret(newLinkKey(), null);
  const plain = rand(1000);
  const header = makeHeader(64);
  const whole = await encryptBytes(secret, plain, header);
  const cipher = await RecordCipher.create(secret, header);
  const read = (a: number, b: number) => Promise.resolve(plain.slice(a, b));
  for (const [a, b] of [[0, 10], [0, 25], [20, 30], [25, 105], [100, 300], [0, whole.length]]) {
    const parts = await encryptRange(cipher, plain.length, read, a, b);
    assert.deepEqual(concatBytes(parts), whole.slice(a, b), `${a}-${b}`);
  }
  // Parts of an odd size cover the stream exactly, as multipart upload parts do.
  const cut: Uint8Array[] = [];
  for (let a = 0; a < whole.length; a += 77) {
    cut.push(...await encryptRange(cipher, plain.length, read, a, Math.min(whole.length, a + 77)));
  }
  assert.deepEqual(concatBytes(cut), whole);
});

Deno.test("sizes that no plaintext has are refused", () => {
  for (const size of [0, 24, 25, 40, 25 + 64 + 16 + 16]) {
    assert.equal(plaintextSize(size, 64), null, String(size));
  }
  assert.equal(plaintextSize(41, 64), 0);
});

Deno.test("a text round-trips, and the wrong secret is an integrity error", async () => {
  const key = newLinkKey();
  const text = "Secret marker ✓ ".repeat(5000);
  const sealed = await encryptText(await shareSecret(key, "pw"), text);
  assert.equal(await decryptText(await shareSecret(key, "pw"), sealed), text);
  await assert.rejects(
    decryptText(await shareSecret(key, "other"), sealed),
    (e) => e instanceof E2EError && e.reason === "integrity",
  );
  await assert.rejects(
    decryptText(await shareSecret(key, "pw"), sealed + "!"),
    (e) => e instanceof E2EError && e.reason === "format",
  );
});

Deno.test("base64url and link keys: round trips, and malformed input is null", () => {
  const rand = seeded(3);
  for (let n = 0; n < 40; n++) {
    const bytes = rand(n);
    assert.deepEqual(fromBase64Url(toBase64Url(bytes)), bytes);
  }
  assert.equal(fromBase64Url("A"), null);
  assert.equal(fromBase64Url("AB"), null); // non-zero unused bits
  assert.equal(fromBase64Url("a+b/"), null);
  const key = newLinkKey();
  assert.deepEqual(parseLinkKey(`#${encodeLinkKey(key)}`), key);
  assert.equal(parseLinkKey(""), null);
  assert.equal(parseLinkKey("#" + encodeLinkKey(key).slice(1)), null);
});

Deno.test("the byte queue hands out exact counts across chunks", () => {
  const q = new ByteQueue();
  q.push(new Uint8Array([1, 2, 3]));
  q.push(new Uint8Array([4]));
  q.push(new Uint8Array([5, 6]));
  assert.deepEqual(q.take(2), new Uint8Array([1, 2]));
  assert.deepEqual(q.take(3), new Uint8Array([3, 4, 5]));
  assert.equal(q.length, 1);
  assert.throws(() => q.take(2), RangeError);
});
