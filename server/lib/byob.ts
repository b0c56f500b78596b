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
