/** Reading byte streams into buffers the reader owns (BYOB), when the stream allows it. */

/** A BYOB reader of `body` when it is a byte stream; null (and `body` untouched) otherwise. */
export function byobReaderOf(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: "byob" });
  } catch (err) {
    if (err instanceof TypeError) return null; // not a byte stream
    throw err;
  }
}

/** What a default reader of a byte stream made here gets per read. */
const AUTO_CHUNK = 64 * 1024;

/**
 * A byte stream whose every pull reads straight into the consumer's buffer (a default reader
 * gets 64 KiB chunks): `read` fills `into` and returns what it read, or null once it has
 * errored the stream `c` itself. The end of what `read` reads closes the stream.
 */
export function byteStreamReadingInto(
  read: (
    into: Uint8Array,
    c: ReadableByteStreamController,
  ) => Promise<ReadableStreamReadResult<Uint8Array> | null>,
  cancel: (reason: unknown) => Promise<void>,
): ReadableStream<Uint8Array> {
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: AUTO_CHUNK,
    async pull(c: ReadableByteStreamController) {
      const request = c.byobRequest!;
      const view = request.view!;
      const result = await read(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), c);
      if (result === null) return;
      if (result.done) {
        c.close();
        request.respondWithNewView(result.value ?? new Uint8Array(0));
        return;
      }
      request.respondWithNewView(result.value);
    },
    cancel,
  });
  return stream as ReadableStream<Uint8Array>;
}
