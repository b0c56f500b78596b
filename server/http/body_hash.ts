/**
 * The SHA-256 of a request body, computed chunk by chunk as it streams (node:crypto: WebCrypto
 * has no incremental digest). A multipart body is hashed with its boundary replaced by a fixed
 * token: a client serialises the same form with a fresh random boundary on every attempt
 * (browsers, curl), so the boundary says nothing about which request it is. No boundary can
 * appear inside the parts, so replacing it changes nothing else.
 */
import { createHash, type Hash } from "node:crypto";
import { Buffer } from "node:buffer";

/** What every multipart boundary delimiter is hashed as. */
const BOUNDARY_TOKEN = Buffer.from("--\0cubby-boundary\0");

/** The `boundary` parameter of a multipart Content-Type, or null. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\//i.test(contentType.trim())) return null;
  const m = contentType.match(/;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i);
  return m ? (m[1] ?? m[2]) : null;
}

/** Incremental SHA-256 of a body (see the module comment for multipart bodies). */
export class BodyHasher {
  #hash: Hash = createHash("sha256");
  #delimiter: Buffer | null;
  /** Bytes not hashed yet because a delimiter may start in them. */
  #tail: Buffer = Buffer.alloc(0);

  constructor(contentType: string) {
    const boundary = multipartBoundary(contentType);
    this.#delimiter = boundary ? Buffer.from(`--${boundary}`) : null;
  }

  /** Adds a chunk; it may be reused by its owner once this returns. */
  update(chunk: Uint8Array): void {
    const delimiter = this.#delimiter;
    if (!delimiter) {
      this.#hash.update(chunk);
      return;
    }
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const data = this.#tail.length ? Buffer.concat([this.#tail, view]) : view;
    let from = 0;
    for (let at = data.indexOf(delimiter); at !== -1; at = data.indexOf(delimiter, from)) {
      this.#hash.update(data.subarray(from, at));
      this.#hash.update(BOUNDARY_TOKEN);
      from = at + delimiter.length;
    }
    // A delimiter that starts in the last length-1 bytes may end in the next chunk.
    const keep = Math.max(from, data.length - (delimiter.length - 1));
    this.#hash.update(data.subarray(from, keep));
    this.#tail = Buffer.from(data.subarray(keep)); // a copy: the chunk's buffer is reused
  }

  /** The lower-case hex digest of everything added. */
  digest(): string {
    this.#hash.update(this.#tail);
    return this.#hash.digest("hex");
  }
}
