/**
 * The committed test vectors (tests/fixtures/e2e_vectors.json, made by scripts/e2e_vectors.ts)
 * against two implementations: this module (WebCrypto, what the browser, the service worker and
 * the command-line client run) and a second one written from docs/E2E.md with node:crypto
 * (createCipheriv, hkdfSync, pbkdf2Sync), which shares no code with the first.
 */
import assert from "node:assert/strict";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, pbkdf2Sync } from "node:crypto";
import { Buffer } from "node:buffer";
import { fromBase64Url, fromHex, toBase64Url } from "./bytes.ts";
import { accessToken, parseLinkKey, shareSecret } from "./keys.ts";
import { decryptMeta, encryptMeta } from "./payloads.ts";
import { decryptBytes, decryptStream, E2EError, encryptBytes, makeHeader } from "./stream.ts";
import { makeVectors, patternBytes, type StreamVector } from "../../scripts/e2e_vectors.ts";

type Vectors = Awaited<ReturnType<typeof makeVectors>>;
const vectors: Vectors = JSON.parse(
  await Deno.readTextFile(new URL("../../tests/fixtures/e2e_vectors.json", import.meta.url)),
);

const b64 = (s: string) => Buffer.from(fromBase64Url(s)!);
const plainOf = (v: StreamVector) =>
  v.plaintext_hex !== undefined
    ? fromHex(v.plaintext_hex)
    : patternBytes(v.plaintext_pattern!.length);

/** The second implementation: docs/E2E.md, step by step, with node:crypto. */
const reference = {
  ikm(key: Buffer, password: string | null): Buffer {
    if (!password) return key;
    const salt = Buffer.concat([Buffer.from("cubby-e2e/v1/password"), key]);
    const w = pbkdf2Sync(Buffer.from(password.normalize("NFC")), salt, 600_000, 32, "sha256");
    return Buffer.concat([key, w]);
  },
  hkdf(ikm: Buffer, salt: Buffer, label: string, n: number): Buffer {
    return Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from(label), n));
  },
  encrypt(ikm: Buffer, rs: number, salt: Buffer, plain: Buffer): Buffer {
    const header = Buffer.alloc(25);
    header.write("CUBE", 0, "ascii");
    header[4] = 1;
    header.writeUInt32BE(rs, 5);
    salt.copy(header, 9);
    const key = this.hkdf(ikm, salt, "cubby-e2e/v1/content-key", 32);
    const prefix = this.hkdf(ikm, salt, "cubby-e2e/v1/content-nonce", 7);
    const count = Math.max(1, Math.ceil(plain.length / rs));
    const out: Buffer[] = [header];
    for (let i = 0; i < count; i++) {
      const nonce = Buffer.alloc(12);
      prefix.copy(nonce, 0);
      nonce.writeUInt32BE(i, 7);
      nonce[11] = i === count - 1 ? 1 : 0;
      const c = createCipheriv("aes-256-gcm", key, nonce);
      c.setAAD(header);
      out.push(c.update(plain.subarray(i * rs, (i + 1) * rs)), c.final(), c.getAuthTag());
    }
    return Buffer.concat(out);
  },
};

Deno.test("stream vectors: this module encrypts and decrypts them exactly", async () => {
  for (const v of vectors.streams) {
    const key = parseLinkKey(v.key)!;
    const secret = await shareSecret(key, v.password);
    assert.equal(await accessToken(secret), v.access_token, v.name);
    const sealed = await encryptBytes(
      secret,
      plainOf(v),
      makeHeader(v.record_size, fromHex(v.salt_hex)),
    );
    assert.equal(sealed.length, v.ciphertext_length, v.name);
    assert.equal(createHash("sha256").update(sealed).digest("hex"), v.ciphertext_sha256, v.name);
    if (v.ciphertext) assert.equal(toBase64Url(sealed), v.ciphertext, v.name);
    assert.deepEqual(await decryptBytes(secret, sealed), plainOf(v), v.name);
  }
});

Deno.test("stream vectors: a second implementation from docs/E2E.md agrees", () => {
  for (const v of vectors.streams) {
    const ikm = reference.ikm(b64(v.key), v.password);
    const token = reference.hkdf(ikm, Buffer.alloc(0), "cubby-e2e/v1/access", 32);
    assert.equal(toBase64Url(token), v.access_token, v.name);
    const sealed = reference.encrypt(
      ikm,
      v.record_size,
      Buffer.from(fromHex(v.salt_hex)),
      Buffer.from(plainOf(v)),
    );
    assert.equal(createHash("sha256").update(sealed).digest("hex"), v.ciphertext_sha256, v.name);
  }
});

Deno.test("metadata vectors: sealed as listed, opened by both implementations", async () => {
  for (const v of vectors.metadata) {
    const secret = await shareSecret(parseLinkKey(v.key)!, v.password);
    assert.equal(await encryptMeta(secret, v.meta, fromHex(v.nonce_hex)), v.sealed, v.name);
    assert.deepEqual(await decryptMeta(secret, v.sealed), v.meta, v.name);
    const ikm = reference.ikm(b64(v.key), v.password);
    const bytes = b64(v.sealed);
    const d = createDecipheriv(
      "aes-256-gcm",
      reference.hkdf(ikm, Buffer.alloc(0), "cubby-e2e/v1/meta", 32),
      bytes.subarray(0, 12),
    );
    d.setAAD(Buffer.from("cubby-e2e/v1/meta"));
    d.setAuthTag(bytes.subarray(bytes.length - 16));
    const json = Buffer.concat([d.update(bytes.subarray(12, bytes.length - 16)), d.final()]);
    assert.deepEqual(JSON.parse(json.toString("utf8")), v.meta, v.name);
  }
});

Deno.test("invalid vectors are refused for the listed reason, releasing no plaintext", async () => {
  for (const v of vectors.invalid) {
    const secret = await shareSecret(parseLinkKey(v.key)!, v.password);
    const released: Uint8Array[] = [];
    const run = new Blob([fromBase64Url(v.ciphertext)!]).stream()
      .pipeThrough(decryptStream(secret))
      .pipeTo(new WritableStream({ write: (c) => void released.push(c) }));
    await assert.rejects(run, (err) => err instanceof E2EError && err.reason === v.error, v.name);
    // Records before the damage may be released (each authenticated); nothing after it is,
    // and a truncated or extended stream is refused at its end, never reported as complete.
    const plain = new TextDecoder().decode(Buffer.concat(released));
    assert.ok("Records: sixteen bytes each, then a tail.".startsWith(plain), v.name);
  }
});
