import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { BodyHasher, multipartBoundary } from "./body_hash.ts";

const enc = new TextEncoder();

function form(boundary: string, file: string): Uint8Array {
  return enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\n` +
      `${file}\r\n--${boundary}--\r\n`,
  );
}

/** Hashes `bytes` fed in pieces cut at `cuts`. */
function hashInPieces(type: string, bytes: Uint8Array, cuts: number[]): string {
  const hasher = new BodyHasher(type);
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    // A fresh copy per piece, overwritten after use, as a reused read buffer would be.
    const piece = bytes.slice(from, at);
    hasher.update(piece);
    piece.fill(0);
    from = at;
  }
  return hasher.digest();
}

Deno.test("a multipart body hashes the same under any boundary and any chunking", () => {
  const a = form("AaB03x", "file --AaB03 content");
  const b = form("another-boundary-0123456789", "file --AaB03 content");
  const typeA = "multipart/form-data; boundary=AaB03x";
  const typeB = 'multipart/form-data; boundary="another-boundary-0123456789"';
  const whole = hashInPieces(typeA, a, []);
  assert.equal(hashInPieces(typeB, b, []), whole);
  for (let cut = 1; cut < a.length; cut++) {
    assert.equal(hashInPieces(typeA, a, [cut]), whole, `cut at ${cut}`);
  }
  for (let cut = 1; cut + 3 < b.length; cut += 3) {
    assert.equal(hashInPieces(typeB, b, [cut, cut + 1, cut + 3]), whole, `cuts at ${cut}`);
  }
  // Another file under the same boundary is another hash.
  assert.notEqual(hashInPieces(typeA, form("AaB03x", "file --AaB03 cOntent"), []), whole);
});

Deno.test("any other body is its plain SHA-256", () => {
  const bytes = enc.encode("--AaB03x not a form");
  const plain = createHash("sha256").update(bytes).digest("hex");
  assert.equal(hashInPieces("application/octet-stream", bytes, [3, 9]), plain);
  assert.equal(hashInPieces("", bytes, []), plain);
});

Deno.test("multipartBoundary reads quoted and bare boundaries, only of multipart types", () => {
  assert.equal(multipartBoundary("multipart/form-data; boundary=x-1"), "x-1");
  assert.equal(multipartBoundary('Multipart/Form-Data; charset=utf-8; Boundary="a b"'), "a b");
  assert.equal(multipartBoundary("text/plain; boundary=x"), null);
  assert.equal(multipartBoundary("multipart/form-data"), null);
});
