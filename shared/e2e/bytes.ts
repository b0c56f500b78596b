/**
 * Byte helpers of the end-to-end encryption format: base64url without padding (the link key,
 * the access token, text ciphertexts), concatenation, and a queue that hands out exact byte
 * counts from a stream of chunks without copying everything it holds.
 */

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** Unpadded base64url of `bytes` (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  // Build in pieces: one string concatenation per 3 bytes is slow for megabytes.
  const parts: string[] = [];
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
    if (out.length >= 8192) {
      parts.push(out);
      out = "";
    }
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64[n >> 18] + B64[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63];
  }
  parts.push(out);
  return parts.join("");
}

/** The bytes of unpadded base64url; null when `text` is not canonical base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? B64_INDEX[code] : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
  }
  // Canonical form: the unused low bits of the last character are zero.
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

/** The bytes of hex text (tests and vectors). */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One array holding every part in order. */
export function concatBytes(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Bytes pushed as they arrive, taken in exact counts (records) in the same order. */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  private head = 0;
  /** Bytes held. */
  length = 0;

  /** Appends a chunk (kept as is, not copied). */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /**
   * Removes and returns the first `n` bytes (n ≤ length): a view into the chunk that holds
   * them all (no copy), else one new array. The caller must not write to it.
   */
  take(n: number): Uint8Array<ArrayBuffer> {
    if (n > this.length) throw new RangeError(`take(${n}) of ${this.length} bytes`);
    const head = this.chunks[0];
    if (head && head.length - this.head >= n) {
      const view = head.subarray(this.head, this.head + n) as Uint8Array<ArrayBuffer>;
      this.head += n;
      if (this.head === head.length) {
        this.chunks.shift();
        this.head = 0;
      }
      this.length -= n;
      return view;
    }
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const first = this.chunks[0];
      const part = first.subarray(this.head, this.head + (n - at));
      out.set(part, at);
      at += part.length;
      this.head += part.length;
      if (this.head === first.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.length -= n;
    return out;
  }
}
