/**
 * Web streams in and out of SDK requests. The SDK takes a Node stream as a request body and
 * pipes it into the socket without watching its errors, so `sendStream` aborts the request
 * itself when the source fails or yields the wrong number of bytes; `readFull` cuts a stream
 * into parts of exactly one size, holding one part in memory at a time.
 */
import { Readable } from "node:stream";
import { AppError } from "../errors.ts";
import { countBytes } from "./driver_streams.ts";
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
 * Reads exactly `size` bytes (fewer only at the end of the stream) into one buffer; a chunk
 * that straddles the boundary keeps its tail in `pending` for the next call. Throws the
 * signal's reason when aborted.
 */
export async function readFull(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  size: number,
  pending: { chunk: Uint8Array | null },
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const buf = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    signal?.throwIfAborted();
    let chunk = pending.chunk;
    pending.chunk = null;
    if (!chunk) {
      const { done, value } = await reader.read();
      if (done) break;
      chunk = value;
    }
    const take = Math.min(chunk.length, size - filled);
    buf.set(chunk.subarray(0, take), filled);
    filled += take;
    if (take < chunk.length) pending.chunk = chunk.subarray(take);
  }
  return filled === size ? buf : buf.subarray(0, filled);
}
