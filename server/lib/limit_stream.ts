/**
 * A byte-count limit on an upload body. A byte stream (a request body) stays a byte stream:
 * reads with a caller's buffer (BYOB) go straight through to the body, so the local driver can
 * read the socket into one reused buffer instead of a fresh 64 KiB chunk per read.
 */
import { fileTooLarge } from "../errors.ts";
import { byobReaderOf } from "./byob.ts";

/** What a default reader of the wrapped byte stream gets per read. */
const AUTO_CHUNK = 64 * 1024;

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
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: AUTO_CHUNK,
    async pull(c: ReadableByteStreamController) {
      const request = c.byobRequest!;
      const view = request.view!;
      const into = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      const { done, value } = await byob.read(into);
      if (done) {
        c.close();
        request.respondWithNewView(value ?? new Uint8Array(0));
        return;
      }
      seen += value.byteLength;
      if (seen > max) {
        const err = tooLarge();
        c.error(err);
        await byob.cancel(err).catch(() => {});
        return;
      }
      request.respondWithNewView(value);
    },
    cancel: (reason) => byob.cancel(reason),
  });
  return { stream: stream as ReadableStream<Uint8Array>, bytes: () => seen };
}
