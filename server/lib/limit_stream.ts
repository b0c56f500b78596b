/**
 * A byte-count limit on an upload body. A byte stream (a request body) stays a byte stream:
 * reads with a caller's buffer (BYOB) go straight through to the body, so the local driver can
 * read the socket into one reused buffer instead of a fresh 64 KiB chunk per read.
 */
import { fileTooLarge } from "../errors.ts";
import { byobReaderOf, byteStreamReadingInto } from "./byob.ts";

/** Wraps a body so it errors with 413 `file_too_large` once more than `max` bytes pass. */
export function limitStream(body: ReadableStream<Uint8Array>, max: number) {
  let seen = 0;
  const tooLarge = () => fileTooLarge(max);
  const byob = byobReaderOf(body);
  if (!byob) {
    const stream = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > max) controller.error(tooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    return { stream, bytes: () => seen };
  }
  const stream = byteStreamReadingInto(async (into, c) => {
    const result = await byob.read(into);
    if (result.done) return result;
    seen += result.value.byteLength;
    if (seen > max) {
      const err = tooLarge();
      c.error(err);
      await byob.cancel(err).catch(() => {});
      return null;
    }
    return result;
  }, (reason) => byob.cancel(reason));
  return { stream, bytes: () => seen };
}
