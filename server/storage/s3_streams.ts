/**
 * Web streams in and out of SDK requests. The SDK takes a Node stream as a request body and
 * pipes it into the socket without watching its errors, so `sendStream` aborts the request
 * itself when the source fails or yields the wrong number of bytes; `PartReader` cuts a stream
 * into parts of exactly one size, holding one part in memory at a time.
 */
import { Readable } from "node:stream";
import { AppError } from "../errors.ts";
import { countBytes } from "./driver_streams.ts";
import { byobReaderOf } from "../lib/byob.ts";
import { quoteEtag } from "./driver_wire.ts";

/**
 * Sends a stream of exactly `size` bytes as a request body through `send` and returns the
 * quoted ETag. Throws the source's AppError (e.g. 400 `storage_size_mismatch`) when the body
 * failed, else whatever `send` threw.
 */
export async function sendStream(
  stream: ReadableStream<Uint8Array>,
  size: number,
  send: (body: Readable, signal: AbortSignal) => Promise<{ ETag?: string }>,
  signal?: AbortSignal,
): Promise<string> {
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const counted = countBytes(stream, size).stream;
  // deno-lint-ignore no-explicit-any
  const body = Readable.fromWeb(counted as any);
  body.on("error", (err) => ac.abort(err));
  try {
    const res = await send(body, ac.signal);
    return quoteEtag(res.ETag ?? "");
  } catch (err) {
    if (ac.signal.aborted && ac.signal.reason instanceof AppError) throw ac.signal.reason;
    throw err;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    body.destroy();
  }
}

/**
 * Cuts a stream into parts of exactly one size (fewer bytes only at its end), all in one buffer
 * reused from part to part, so a long upload allocates one part's memory and no more: a part
 * must be sent before the next one is read. A byte stream (a request body) is read straight into
 * the buffer (BYOB); any other stream is copied in chunk by chunk, a chunk that straddles two
 * parts keeping its tail for the next.
 */
export class PartReader {
  #byob: ReadableStreamBYOBReader | null;
  #chunks: ReadableStreamDefaultReader<Uint8Array> | null;
  #pending: Uint8Array | null = null;
  #buffer = new ArrayBuffer(0);
  #ended = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#byob = byobReaderOf(stream);
    this.#chunks = this.#byob ? null : stream.getReader();
  }

  /** The next `size` bytes (fewer at the end, none after it), valid until the next call. */
  async next(size: number, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#buffer.byteLength !== size) this.#buffer = new ArrayBuffer(size);
    let filled = 0;
    while (filled < size && !this.#ended) {
      signal?.throwIfAborted();
      filled += this.#byob
        ? await this.#readInto(this.#byob, filled, size)
        : await this.#copyInto(this.#chunks!, filled, size);
    }
    return new Uint8Array(this.#buffer, 0, filled);
  }

  /** Stops reading the stream. */
  cancel(reason: unknown): Promise<void> {
    return (this.#byob ?? this.#chunks)!.cancel(reason);
  }

  async #readInto(reader: ReadableStreamBYOBReader, at: number, size: number): Promise<number> {
    const { done, value } = await reader.read(new Uint8Array(this.#buffer, at, size - at));
    // The read transferred the buffer: its bytes live on in the view it returned.
    this.#buffer = value ? value.buffer as ArrayBuffer : new ArrayBuffer(size);
    if (done) this.#ended = true;
    return done ? 0 : value.byteLength;
  }

  async #copyInto(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    at: number,
    size: number,
  ): Promise<number> {
    let chunk = this.#pending;
    this.#pending = null;
    if (!chunk) {
      const { done, value } = await reader.read();
      if (done) {
        this.#ended = true;
        return 0;
      }
      chunk = value;
    }
    const take = Math.min(chunk.length, size - at);
    new Uint8Array(this.#buffer).set(chunk.subarray(0, take), at);
    if (take < chunk.length) this.#pending = chunk.subarray(take);
    return take;
  }
}
