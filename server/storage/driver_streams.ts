/** Byte-stream helpers both drivers share: put bodies as streams, byte counting, BYOB readers. */
import { AppError } from "../errors.ts";
import type { PutBody } from "./driver.ts";

const encoder = new TextEncoder();

/** Turns a put body into a byte stream and tells its size when known. */
export function toByteStream(
  body: PutBody,
  declaredSize?: number,
): { stream: ReadableStream<Uint8Array>; size: number | undefined } {
  if (typeof body === "string") body = encoder.encode(body);
  if (body instanceof Uint8Array) {
    const bytes = body;
    if (declaredSize !== undefined && declaredSize !== bytes.length) {
      throw sizeMismatch(declaredSize, bytes.length);
    }
    return {
      stream: new ReadableStream({
        start(c) {
          if (bytes.length) c.enqueue(bytes);
          c.close();
        },
      }),
      size: bytes.length,
    };
  }
  return { stream: body, size: declaredSize };
}

/**
 * Passes a stream through, counting bytes; errors with 400 `storage_size_mismatch` when the
 * stream yields more or fewer bytes than `expected` (when given).
 */
export function countBytes(
  stream: ReadableStream<Uint8Array>,
  expected?: number,
): { stream: ReadableStream<Uint8Array>; count: () => number } {
  let n = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, c) {
      n += chunk.length;
      if (expected !== undefined && n > expected) c.error(sizeMismatch(expected, n));
      else c.enqueue(chunk);
    },
    flush(c) {
      if (expected !== undefined && n !== expected) c.error(sizeMismatch(expected, n));
    },
  });
  return { stream: stream.pipeThrough(counter), count: () => n };
}

function sizeMismatch(expected: number, actual: number): AppError {
  return new AppError("storage_size_mismatch", 400, { expected, actual });
}
