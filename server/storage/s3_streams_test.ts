import assert from "node:assert/strict";
import { PartReader } from "./s3_streams.ts";

const bytes = Uint8Array.from({ length: 10_007 }, (_, i) => (i * 7) % 256);

/** Chunks of uneven sizes, as a network body arrives. */
function chunksOf(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, n = 1; at < data.length; n = (n * 5 + 3) % 1500 + 1) {
    out.push(data.slice(at, at + n));
    at += n;
  }
  return out;
}

const streams: Record<string, () => ReadableStream<Uint8Array>> = {
  "a byte stream (read straight into the part)": () => {
    const chunks = chunksOf(bytes);
    return new ReadableStream({
      type: "bytes",
      pull(c) {
        const next = chunks.shift();
        if (next) return c.enqueue(next);
        c.close();
        c.byobRequest?.respond(0); // a BYOB read waiting on a closed byte stream ends so
      },
    });
  },
  "a stream of chunks (copied in)": () => ReadableStream.from(chunksOf(bytes)),
};

for (const [kind, make] of Object.entries(streams)) {
  Deno.test(`PartReader: ${kind} is cut into exact parts, the last one shorter`, async () => {
    const reader = new PartReader(make());
    const parts: Uint8Array[] = [];
    for (;;) {
      const part = await reader.next(1000);
      if (part.length === 0) break;
      parts.push(part.slice()); // the part is only valid until the next call
    }
    assert.deepEqual(parts.map((p) => p.length), [...Array(10).fill(1000), 7]);
    const joined = new Uint8Array(bytes.length);
    parts.forEach((p, i) => joined.set(p, i * 1000));
    assert.deepEqual(joined, bytes);
    assert.equal((await reader.next(1000)).length, 0, "nothing after the end");
  });
}

Deno.test("PartReader: a part size that changes between parts", async () => {
  const reader = new PartReader(streams["a byte stream (read straight into the part)"]());
  const a = (await reader.next(3000)).slice();
  const b = (await reader.next(7007)).slice();
  assert.deepEqual([a.length, b.length], [3000, 7007]);
  assert.deepEqual([...a, ...b], [...bytes]);
});

Deno.test("PartReader: an aborted signal stops the read", async () => {
  const ac = new AbortController();
  ac.abort(new Error("stop"));
  const reader = new PartReader(ReadableStream.from(chunksOf(bytes)));
  await assert.rejects(() => reader.next(1000, ac.signal), /stop/);
  await reader.cancel("done");
});
