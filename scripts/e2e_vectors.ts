/**
 * Writes tests/fixtures/e2e_vectors.json: the test vectors of the end-to-end encryption format
 * (docs/E2E.md), made with fixed keys, salts and nonces. They are committed, so a change of the
 * format shows as a changed fixture; shared/e2e/vectors_test.ts checks them against this
 * module and against a second implementation written from the document with node:crypto.
 *
 *   deno run -A scripts/e2e_vectors.ts
 */
import { join, resolve } from "node:path";
import { concatBytes, fromBase64Url, fromHex, toBase64Url, toHex } from "../shared/e2e/bytes.ts";
import { accessToken, E2E_VERSION, PASSWORD_ITERATIONS, shareSecret } from "../shared/e2e/keys.ts";
import { encryptMeta } from "../shared/e2e/payloads.ts";
import { encryptBytes, HEADER_BYTES, makeHeader, TAG_BYTES } from "../shared/e2e/stream.ts";

const encoder = new TextEncoder();
const key = (start: number) => Uint8Array.from({ length: 32 }, (_, i) => (start + i) & 255);
const salt = (start: number) => Uint8Array.from({ length: 16 }, (_, i) => (start + i) & 255);
/** Bytes i mod 251 (a pattern with no short period), for vectors too long to list. */
export const patternBytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);

/** One stream vector: the inputs, and the ciphertext (in full, or its length and digest). */
export type StreamVector = {
  name: string;
  key: string;
  password: string | null;
  access_token: string;
  record_size: number;
  salt_hex: string;
  plaintext_hex?: string;
  plaintext_pattern?: { length: number; byte: string };
  ciphertext?: string;
  ciphertext_length: number;
  ciphertext_sha256: string;
};

async function streamVector(
  name: string,
  k: Uint8Array,
  password: string | null,
  recordSize: number,
  s: Uint8Array,
  plain: Uint8Array,
  listed = true,
): Promise<StreamVector> {
  const secret = await shareSecret(k, password);
  const sealed = await encryptBytes(secret, plain, makeHeader(recordSize, s));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", sealed));
  return {
    name,
    key: toBase64Url(k),
    password,
    access_token: await accessToken(secret),
    record_size: recordSize,
    salt_hex: toHex(s),
    ...(listed
      ? { plaintext_hex: toHex(plain), ciphertext: toBase64Url(sealed) }
      : { plaintext_pattern: { length: plain.length, byte: "i mod 251" } }),
    ciphertext_length: sealed.length,
    ciphertext_sha256: toHex(digest),
  };
}

/** The vectors; `invalid` are ciphertexts a reader must refuse, with the reason. */
export async function makeVectors() {
  const three = await streamVector(
    "three records of 16 bytes (the last short), with a password",
    key(0x40),
    "correct horse battery staple",
    16,
    salt(0xc0),
    encoder.encode("Records: sixteen bytes each, then a tail."),
  );
  const sealed = fromBase64Url(three.ciphertext!)!;
  const rec = (i: number) =>
    sealed.slice(HEADER_BYTES + i * (16 + TAG_BYTES), HEADER_BYTES + (i + 1) * (16 + TAG_BYTES));
  const header = sealed.slice(0, HEADER_BYTES);
  const flipped = sealed.slice();
  flipped[HEADER_BYTES + 16 + TAG_BYTES + 3] ^= 0x01;
  const version2 = sealed.slice();
  version2[4] = 2;
  const invalid = (name: string, bytes: Uint8Array, reason: "version" | "integrity") => ({
    name,
    key: three.key,
    password: three.password,
    ciphertext: toBase64Url(bytes),
    error: reason,
  });
  const metaKey = key(0x80);
  return {
    format: "cubby-e2e",
    version: E2E_VERSION,
    password_iterations: PASSWORD_ITERATIONS,
    note: "Bytes are base64url without padding unless the field ends in _hex. See docs/E2E.md.",
    streams: [
      await streamVector(
        "empty text, no password",
        key(0),
        null,
        65536,
        salt(0xa0),
        new Uint8Array(),
      ),
      await streamVector(
        "a short text, no password",
        key(0x20),
        null,
        65536,
        salt(0xb0),
        encoder.encode("Hello, Cubby! 你好，世界"),
      ),
      three,
      await streamVector(
        "two full records (a multiple of the record size), no password",
        key(0x60),
        null,
        16,
        salt(0xd0),
        patternBytes(32),
      ),
      await streamVector(
        "the default record size, three records, no password",
        key(0x70),
        null,
        65536,
        salt(0xe0),
        patternBytes(2 * 65536 + 1000),
        false,
      ),
    ],
    metadata: [{
      name: "file name and type, with a password",
      key: toBase64Url(metaKey),
      password: "pässwörd",
      nonce_hex: "000102030405060708090a0b",
      meta: { name: "report 2024 – final.pdf", type: "application/pdf" },
      sealed: await encryptMeta(
        await shareSecret(metaKey, "pässwörd"),
        { name: "report 2024 – final.pdf", type: "application/pdf" },
        fromHex("000102030405060708090a0b"),
      ),
    }],
    invalid: [
      invalid(
        "truncated at a record boundary (final record dropped)",
        sealed.slice(0, HEADER_BYTES + 2 * 32),
        "integrity",
      ),
      invalid("truncated inside a record", sealed.slice(0, sealed.length - 5), "integrity"),
      invalid(
        "records 0 and 1 swapped",
        concatBytes([header, rec(1), rec(0), sealed.slice(HEADER_BYTES + 64)]),
        "integrity",
      ),
      invalid(
        "extended with a copy of the final record",
        concatBytes([sealed, sealed.slice(HEADER_BYTES + 64)]),
        "integrity",
      ),
      invalid("one bit flipped in record 1", flipped, "integrity"),
      invalid("format version 2 in the header", version2, "version"),
      {
        ...invalid("the right ciphertext under a wrong password", sealed, "integrity"),
        password: "wrong",
      },
    ],
  };
}

if (import.meta.main) {
  const out = join(resolve(import.meta.dirname!, ".."), "tests/fixtures/e2e_vectors.json");
  await Deno.writeTextFile(out, JSON.stringify(await makeVectors(), null, 2) + "\n");
  console.log(`wrote ${out}`);
}
