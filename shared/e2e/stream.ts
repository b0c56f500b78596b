/**
 * The encrypted stream of format version 1 (docs/E2E.md): a 25-byte header, then fixed-size
 * records, each sealed with AES-256-GCM under a nonce made of a 7-byte prefix, the record's
 * 32-bit counter and a final flag (the STREAM construction). A record moved to another place
 * fails its counter, a stream cut at a record boundary lacks the final flag, and anything after
 * the final record fails it, so reordering, truncation and extension are all detected. Every
 * record except the last holds exactly `recordSize` bytes of plaintext, which makes the mapping
 * between plaintext and ciphertext offsets exact: any byte range of the ciphertext (one upload
 * part) can be made on its own, and made again identically after a reload.
 *
 *   header = "CUBE" | version (1 byte) | recordSize (uint32 BE) | salt (16 bytes)
 *   key    = HKDF(secret, salt, "cubby-e2e/v1/content-key", 32)
 *   prefix = HKDF(secret, salt, "cubby-e2e/v1/content-nonce", 7)
 *   record i = AES-256-GCM(key, prefix | uint32 BE i | final ? 1 : 0, plaintext_i, aad = header)
 */
import { ByteQueue, concatBytes } from "./bytes.ts";
import { aesKey, E2E_VERSION, hkdf, LABELS, type ShareSecret } from "./keys.ts";

/** The first four bytes of every stream. */
export const STREAM_MAGIC = new Uint8Array([0x43, 0x55, 0x42, 0x45]); // "CUBE"
export const HEADER_BYTES = 25;
export const TAG_BYTES = 16;
/** The plaintext bytes per record Cubby writes (64 KiB, as Send and RFC 8188 commonly use). */
export const DEFAULT_RECORD_SIZE = 64 * 1024;
/** The record sizes a reader accepts; the upper bound keeps a reader's memory bounded. */
export const MIN_RECORD_SIZE = 16;
export const MAX_RECORD_SIZE = 4 * 1024 * 1024;
const MAX_RECORDS = 2 ** 32;

/**
 * Why a stream could not be decrypted: not this format, a format version this reader does not
 * know, or altered (which is also what a wrong key looks like).
 */
export class E2EError extends Error {
  constructor(readonly reason: "format" | "version" | "integrity", message: string) {
    super(message);
    this.name = "E2EError";
  }
}

/** A parsed stream header. */
export type StreamHeader = {
  recordSize: number;
  salt: Uint8Array<ArrayBuffer>;
  /** The 25 header bytes, the additional data of every record. */
  bytes: Uint8Array<ArrayBuffer>;
};

/** A new header; `salt` is random unless given (test vectors). */
export function makeHeader(
  recordSize = DEFAULT_RECORD_SIZE,
  salt: Uint8Array = crypto.getRandomValues(new Uint8Array(16)),
): StreamHeader {
  if (recordSize < MIN_RECORD_SIZE || recordSize > MAX_RECORD_SIZE) {
    throw new RangeError(
      `record size ${recordSize} outside ${MIN_RECORD_SIZE}..${MAX_RECORD_SIZE}`,
    );
  }
  const bytes = new Uint8Array(HEADER_BYTES);
  bytes.set(STREAM_MAGIC, 0);
  bytes[4] = E2E_VERSION;
  new DataView(bytes.buffer).setUint32(5, recordSize);
  bytes.set(salt, 9);
  return { recordSize, salt: bytes.slice(9, 25), bytes };
}

/** Reads a header; throws E2EError("format") for another magic, version or record size. */
export function parseHeader(bytes: Uint8Array): StreamHeader {
  if (bytes.length < HEADER_BYTES || !STREAM_MAGIC.every((b, i) => bytes[i] === b)) {
    throw new E2EError("format", "not a Cubby encrypted stream");
  }
  if (bytes[4] !== E2E_VERSION) {
    throw new E2EError("version", `unsupported format version ${bytes[4]}`);
  }
  const recordSize = new DataView(bytes.buffer, bytes.byteOffset).getUint32(5);
  if (recordSize < MIN_RECORD_SIZE || recordSize > MAX_RECORD_SIZE) {
    throw new E2EError("format", `record size ${recordSize} out of range`);
  }
  const header = bytes.slice(0, HEADER_BYTES);
  return { recordSize, salt: header.slice(9, 25), bytes: header };
}

/** How many records a plaintext of `size` bytes takes (an empty one takes one). */
export function recordCount(size: number, recordSize = DEFAULT_RECORD_SIZE): number {
  return Math.max(1, Math.ceil(size / recordSize));
}

/** The ciphertext size of a plaintext of `size` bytes. */
export function ciphertextSize(size: number, recordSize = DEFAULT_RECORD_SIZE): number {
  return HEADER_BYTES + size + TAG_BYTES * recordCount(size, recordSize);
}

/** The plaintext size of a ciphertext of `size` bytes; null when no plaintext has that size. */
export function plaintextSize(size: number, recordSize = DEFAULT_RECORD_SIZE): number | null {
  const body = size - HEADER_BYTES;
  if (body < TAG_BYTES) return null;
  const records = Math.ceil(body / (recordSize + TAG_BYTES));
  const plain = body - TAG_BYTES * records;
  return ciphertextSize(plain, recordSize) === size ? plain : null;
}

/** Seals and opens the records of one stream. */
export class RecordCipher {
  private constructor(
    readonly header: StreamHeader,
    private key: CryptoKey,
    private prefix: Uint8Array,
  ) {}

  /** The cipher of a stream with this header under `secret`. */
  static async create(secret: ShareSecret, header: StreamHeader): Promise<RecordCipher> {
    const key = await aesKey(await hkdf(secret, LABELS.contentKey, 32, header.salt));
    const prefix = await hkdf(secret, LABELS.contentNonce, 7, header.salt);
    return new RecordCipher(header, key, prefix);
  }

  /** The nonce of record `index`: prefix | uint32 BE index | final flag. */
  nonce(index: number, final: boolean): Uint8Array<ArrayBuffer> {
    if (!Number.isInteger(index) || index < 0 || index >= MAX_RECORDS) {
      throw new RangeError(`record index ${index} out of range`);
    }
    const nonce = new Uint8Array(12);
    nonce.set(this.prefix, 0);
    new DataView(nonce.buffer).setUint32(7, index);
    nonce[11] = final ? 1 : 0;
    return nonce;
  }

  /** Seals record `index`. */
  async seal(index: number, final: boolean, plain: Uint8Array<ArrayBuffer>) {
    const params = {
      name: "AES-GCM",
      iv: this.nonce(index, final),
      additionalData: this.header.bytes,
    };
    return new Uint8Array(await crypto.subtle.encrypt(params, this.key, plain));
  }

  /** Opens record `index`; throws E2EError("integrity") when it does not authenticate. */
  async open(index: number, final: boolean, sealed: Uint8Array<ArrayBuffer>) {
    const params = {
      name: "AES-GCM",
      iv: this.nonce(index, final),
      additionalData: this.header.bytes,
    };
    try {
      return new Uint8Array(await crypto.subtle.decrypt(params, this.key, sealed));
    } catch {
      throw new E2EError("integrity", `record ${index} does not authenticate`);
    }
  }
}

/**
 * A transform that encrypts a byte stream of any length. One full record is held back until
 * more bytes arrive, because only the end of the input tells which record is the last.
 */
export function encryptStream(
  secret: ShareSecret,
  header: StreamHeader = makeHeader(),
): TransformStream<Uint8Array, Uint8Array> {
  const queue = new ByteQueue();
  const rs = header.recordSize;
  let cipher: RecordCipher;
  let index = 0;
  return new TransformStream({
    async start(controller) {
      cipher = await RecordCipher.create(secret, header);
      controller.enqueue(header.bytes.slice());
    },
    async transform(chunk, controller) {
      queue.push(chunk);
      while (queue.length > rs) {
        controller.enqueue(await cipher.seal(index++, false, queue.take(rs)));
      }
    },
    async flush(controller) {
      controller.enqueue(await cipher.seal(index++, true, queue.take(queue.length)));
    },
  });
}

/**
 * A transform that decrypts a stream and releases each record's plaintext only once it
 * authenticates; it errors with E2EError at the first bad record, or at the end when the
 * final record is missing. Memory stays within two records.
 */
export function decryptStream(secret: ShareSecret): TransformStream<Uint8Array, Uint8Array> {
  const queue = new ByteQueue();
  let cipher: RecordCipher | null = null;
  let sealedSize = 0;
  let index = 0;
  return new TransformStream({
    async transform(chunk, controller) {
      queue.push(chunk);
      if (!cipher) {
        if (queue.length < HEADER_BYTES) return;
        const header = parseHeader(queue.take(HEADER_BYTES));
        cipher = await RecordCipher.create(secret, header);
        sealedSize = header.recordSize + TAG_BYTES;
      }
      // A record is known not to be the last once more bytes follow it. The records a chunk
      // completes are opened together (WebCrypto works off the main thread), released in order.
      const opening: Promise<Uint8Array<ArrayBuffer>>[] = [];
      while (queue.length > sealedSize) {
        opening.push(cipher.open(index++, false, queue.take(sealedSize)));
      }
      // Every promise is awaited, so none is left to reject unobserved.
      const opened = await Promise.allSettled(opening);
      for (const r of opened) {
        if (r.status === "rejected") throw r.reason;
        controller.enqueue(r.value);
      }
    },
    async flush(controller) {
      if (!cipher) throw new E2EError("format", "the stream ends inside its header");
      if (queue.length < TAG_BYTES || (queue.length === TAG_BYTES && index > 0)) {
        throw new E2EError("integrity", "the stream is truncated");
      }
      controller.enqueue(await cipher.open(index, true, queue.take(queue.length)));
    },
  });
}

/** Encrypts a whole plaintext held in memory (texts, small files, test vectors). */
export async function encryptBytes(
  secret: ShareSecret,
  plain: Uint8Array,
  header: StreamHeader = makeHeader(),
): Promise<Uint8Array<ArrayBuffer>> {
  const cipher = await RecordCipher.create(secret, header);
  const rs = header.recordSize;
  const count = recordCount(plain.length, rs);
  const parts: Uint8Array[] = [header.bytes];
  for (let i = 0; i < count; i++) {
    parts.push(await cipher.seal(i, i === count - 1, plain.slice(i * rs, (i + 1) * rs)));
  }
  return concatBytes(parts);
}

/** Decrypts a whole ciphertext held in memory; throws E2EError. */
export async function decryptBytes(
  secret: ShareSecret,
  sealed: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  const sink = new WritableStream<Uint8Array>({ write: (c) => void parts.push(c) });
  await new Blob([sealed as Uint8Array<ArrayBuffer>]).stream().pipeThrough(decryptStream(secret))
    .pipeTo(sink);
  return concatBytes(parts);
}

/**
 * The ciphertext bytes [start, end) of a plaintext of `size` bytes read through `readPlain`
 * (plaintext range → bytes). Each record it touches is sealed whole and cut to the range, so
 * adjacent ranges (upload parts) fit together, and a range made twice is the same bytes.
 */
export async function encryptRange(
  cipher: RecordCipher,
  size: number,
  readPlain: (start: number, end: number) => Promise<Uint8Array<ArrayBuffer>>,
  start: number,
  end: number,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const rs = cipher.header.recordSize;
  const total = ciphertextSize(size, rs);
  if (start < 0 || end > total || start > end) {
    throw new RangeError(`range ${start}-${end} outside 0-${total}`);
  }
  const out: Uint8Array<ArrayBuffer>[] = [];
  if (start < HEADER_BYTES) out.push(cipher.header.bytes.slice(start, Math.min(end, HEADER_BYTES)));
  if (end <= HEADER_BYTES) return out;
  const sealed = rs + TAG_BYTES;
  const count = recordCount(size, rs);
  const first = Math.floor((Math.max(start, HEADER_BYTES) - HEADER_BYTES) / sealed);
  const last = Math.min(count - 1, Math.floor((end - 1 - HEADER_BYTES) / sealed));
  const plain = await readPlain(first * rs, Math.min(size, (last + 1) * rs));
  // Sealed together (WebCrypto works off the main thread), kept in order.
  const records = await Promise.all(
    Array.from({ length: last - first + 1 }, (_, k) => {
      const at = k * rs;
      return cipher.seal(first + k, first + k === count - 1, plain.slice(at, at + rs));
    }),
  );
  records.forEach((record, k) => {
    const offset = HEADER_BYTES + (first + k) * sealed;
    const from = Math.max(start, offset) - offset;
    const to = Math.min(end, offset + record.length) - offset;
    out.push(from === 0 && to === record.length ? record : record.slice(from, to));
  });
  return out;
}
