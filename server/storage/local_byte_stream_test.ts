/**
 * The local driver with byte streams (what a request body is): read by BYOB into one reused
 * buffer (server/storage/local_files.ts copyByob), and limitStream keeping a byte stream.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { LocalDriver } from "./local.ts";
import { withLocalDriver } from "../../tests/helpers/local_driver.ts";
import { limitStream } from "../lib/limit_stream.ts";

/** A byte stream of `pieces`, then closed, or errored with `end`. */
function byteStream(pieces: Uint8Array[], end?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    type: "bytes",
    pull(c: ReadableByteStreamController) {
      if (i < pieces.length) c.enqueue(pieces[i++].slice());
      else if (end) c.error(end);
      else {
        c.close();
        c.byobRequest?.respond(0); // a pending BYOB read ends empty, as Deno's request bodies do
      }
    },
  }) as ReadableStream<Uint8Array>;
}

/** Irregular pieces (1 byte to 700 KiB) crossing the 256 KiB write buffer; `total` bytes. */
function pieces(): { parts: Uint8Array[]; all: Uint8Array } {
  const sizes = [100 * 1024, 300 * 1024, 1, 700 * 1024, 256 * 1024, 3, 64 * 1024 - 1];
  const parts = sizes.map((n, k) => {
    const p = new Uint8Array(n);
    for (let j = 0; j < n; j++) p[j] = (j * 31 + k * 7) & 0xff;
    return p;
  });
  const all = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  return { parts, all };
}

async function bytesOf(d: LocalDriver, key: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response((await d.get(key)).body).arrayBuffer());
}

const tempFiles = async (root: string) =>
  (await Array.fromAsync(Deno.readDir(join(root, ".cubby-tmp")))).length;

Deno.test("local: a byte stream in irregular pieces is written bytes-identical", async () => {
  await withLocalDriver(async (d) => {
    const { parts, all } = pieces();
    const put = await d.put("a.bin", byteStream(parts), { size: all.length });
    assert.equal(put.size, all.length);
    assert.deepEqual(await bytesOf(d, "a.bin"), all);
    // Through the size limit too, which must stay a byte stream for the driver.
    const limited = limitStream(byteStream(parts), all.length);
    await d.put("b.bin", limited.stream);
    assert.deepEqual(await bytesOf(d, "b.bin"), all);
    assert.equal(limited.bytes(), all.length);
  });
});

Deno.test("local: a failing, aborted or wrong-sized byte stream leaves no temp file", async () => {
  await withLocalDriver(async (d, root) => {
    await d.put("doc.txt", "old content");
    const { parts, all } = pieces();
    await assert.rejects(
      d.put("doc.txt", byteStream(parts, new Error("client went away"))),
      /client went away/,
    );
    const ac = new AbortController();
    const endless = new ReadableStream({
      type: "bytes",
      async pull(c: ReadableByteStreamController) {
        await new Promise((r) => setTimeout(r, 5));
        try {
          c.enqueue(new Uint8Array(1024));
        } catch { /* cancelled by the driver meanwhile */ }
      },
    }) as ReadableStream<Uint8Array>;
    const aborted = d.put("doc.txt", endless, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error("cancelled")), 30);
    await assert.rejects(aborted, /cancelled/);
    await assert.rejects(d.put("doc.txt", byteStream(parts), { size: all.length - 1 }), (e) => {
      assert.ok(e instanceof AppError);
      assert.deepEqual([e.code, e.status], ["storage_size_mismatch", 400]);
      return true;
    });
    assert.equal(await new TextDecoder().decode(await bytesOf(d, "doc.txt")), "old content");
    assert.equal(await tempFiles(root), 0);
  });
});

Deno.test("limitStream: a byte stream over the limit fails with 413 file_too_large", async () => {
  await withLocalDriver(async (d, root) => {
    const { parts, all } = pieces();
    const limited = limitStream(byteStream(parts), all.length - 1);
    await assert.rejects(d.put("big.bin", limited.stream), (e) => {
      assert.ok(e instanceof AppError);
      assert.deepEqual([e.code, e.status], ["file_too_large", 413]);
      return true;
    });
    assert.equal(await d.head("big.bin"), null);
    assert.equal(await tempFiles(root), 0);
    // A default reader (what the S3 driver uses) gets the same bytes from the wrapped stream.
    const again = limitStream(byteStream(parts), all.length);
    assert.deepEqual(new Uint8Array(await new Response(again.stream).arrayBuffer()), all);
  });
});
