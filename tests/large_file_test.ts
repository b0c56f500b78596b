/**
 * Issue 3 §6: a 1 GiB file goes through the real server (main.ts, local storage) and comes back
 * bytes-identical, while the server's memory stays flat (peak RSS sampled from /proc).
 *
 * The bytes are pseudo-random, generated and hashed as a stream; nothing holds the whole file.
 * The big upload is sent by `curl -T` from a file on disk (written as a stream first), the way
 * scripts upload: Deno 2.9's HTTP server slows down badly (quadratically, memmove-bound) when a
 * request body arrives in irregular pieces, as Deno's own `fetch` with a stream body, node:http
 * and `cat file | curl -T -` send it, so a 1 GiB upload from those clients takes minutes. A
 * second, smaller test still streams a generated body through `fetch` (`duplex: "half"`, no
 * Content-Length) to cover uploads of unknown length.
 *
 * `CUBBY_LARGE_FILE_MB` sets the big size (default 1024), `CUBBY_STREAMED_FILE_MB` the fetch
 * one (default 32), `CUBBY_LARGE_FILE_MAX_RSS_MB` the allowed server peak RSS (default 300) and
 * `CUBBY_UPLOAD_MAX_RSS_MB` the lower one allowed while uploading (default 150: an upload reads
 * the socket into one reused buffer, see server/storage/local_files.ts).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  adminAuth,
  type FilesServer,
  hashStream,
  MiB,
  pseudoRandomStream,
  run,
  sampleRss,
  startFilesServer,
  writePseudoRandomFile,
} from "./shell/helpers.ts";
import { whileServing } from "./helpers/server.ts";

const SIZE_MB = Number(Deno.env.get("CUBBY_LARGE_FILE_MB") ?? 1024);
const STREAMED_MB = Number(Deno.env.get("CUBBY_STREAMED_FILE_MB") ?? 32);
const MAX_RSS_MB = Number(Deno.env.get("CUBBY_LARGE_FILE_MAX_RSS_MB") ?? 300);
const UPLOAD_MAX_RSS_MB = Number(Deno.env.get("CUBBY_UPLOAD_MAX_RSS_MB") ?? 150);
/** Per transfer. 1 GiB takes 3–10 s here (2 busy cores); this only stops a hang. */
const TRANSFER_TIMEOUT_S = 180;

const mb = (bytes: number) => (bytes / MiB).toFixed(0);
type Peak = Awaited<ReturnType<Awaited<ReturnType<typeof sampleRss>>["stop"]>>;

/** Downloads a share through `/api/file-download/{slug}`, hashing it as it arrives. */
async function download(server: FilesServer, slug: string, size: number, filename: string) {
  const mem = await sampleRss(server.pid);
  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/file-download/${slug}`, {
    signal: AbortSignal.timeout(TRANSFER_TIMEOUT_S * 1000),
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-length"), String(size));
  assert.ok(
    (res.headers.get("content-disposition") ?? "").includes(`filename="${filename}"`),
    res.headers.get("content-disposition") ?? "no Content-Disposition",
  );
  const got = await hashStream(res.body!);
  return { ...got, seconds: (performance.now() - t0) / 1000, rss: await mem.stop() };
}

/** Fails when the server's peak RSS reached the limit (VmHWM covers the time between samples). */
function assertFlat(phase: string, r: Peak, maxMb = MAX_RSS_MB) {
  assert.ok(
    r.peak < maxMb * MiB,
    `server peak RSS during ${phase} was ${mb(r.peak)} MiB, over ${maxMb} MiB`,
  );
}

function report(label: string, sizeMb: number, seconds: number, r: Peak) {
  return `${label} ${seconds.toFixed(1)} s (${(sizeMb / seconds).toFixed(0)} MiB/s), peak RSS ` +
    `${mb(r.peak)} MiB (from ${mb(r.start)}, ${r.samples} samples)`;
}

Deno.test({
  name: `a ${SIZE_MB} MiB curl -T upload round-trips bytes-identical; the server stays flat`,
  sanitizeResources: false, // the server subprocess's pipes are closed by stop()
  sanitizeOps: false,
  async fn() {
    assert.ok(Number.isInteger(SIZE_MB) && SIZE_MB > 0, "CUBBY_LARGE_FILE_MB must be > 0");
    const size = SIZE_MB * MiB;
    const tmp = await Deno.makeTempDir({ prefix: "cubby-large-" });
    const server = await startFilesServer(Math.ceil(SIZE_MB / 1024) + 1);
    try {
      await whileServing(server, async () => {
        const source = join(tmp, "big.bin");
        const sentHash = await writePseudoRandomFile(source, size, 0xC0BB);
        const auth = await adminAuth(server);

        const upMem = await sampleRss(server.pid);
        const t0 = performance.now();
        const out = await run("curl", [
          "-sS",
          "--fail-with-body",
          "--max-time",
          String(TRANSFER_TIMEOUT_S),
          "-T",
          source,
          "-H",
          `Authorization: ${auth}`,
          `${server.url}/api/upload-direct/big.bin`,
        ]);
        const upSeconds = (performance.now() - t0) / 1000;
        const upRss = await upMem.stop();
        await Deno.remove(source); // keep the disk use at one copy
        const body = JSON.parse(out);
        assert.equal(body.code, 201, out);
        assert.equal(body.data.size, size);
        assert.equal(body.data.filename, "big.bin");

        const down = await download(server, body.data.slug, size, "big.bin");
        console.log(
          `${SIZE_MB} MiB: ${report("upload", SIZE_MB, upSeconds, upRss)}; ` +
            `${
              report("download", SIZE_MB, down.seconds, down.rss)
            }; VmHWM reset: ${upRss.hwmReset}`,
        );
        assert.equal(down.bytes, size);
        assert.equal(down.sha256, sentHash, "downloaded bytes differ from the uploaded ones");
        assertFlat("upload", upRss, UPLOAD_MAX_RSS_MB);
        assertFlat("download", down.rss);
      });
    } finally {
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: `a ${STREAMED_MB} MiB body streamed by fetch (unknown length) round-trips`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const size = STREAMED_MB * MiB;
    const server = await startFilesServer(Math.ceil(STREAMED_MB / 1024) + 1);
    await whileServing(server, async () => {
      const auth = await adminAuth(server);
      const sent = createHash("sha256");
      const upMem = await sampleRss(server.pid);
      const t0 = performance.now();
      const up = await fetch(`${server.url}/api/upload-direct/${encodeURIComponent("流 s.bin")}`, {
        method: "PUT",
        headers: { authorization: auth, "content-type": "application/octet-stream" },
        body: pseudoRandomStream(size, { seed: 7, onChunk: (c) => sent.update(c) }),
        duplex: "half",
        signal: AbortSignal.timeout(TRANSFER_TIMEOUT_S * 1000),
      } as RequestInit);
      const body = await up.json();
      const upSeconds = (performance.now() - t0) / 1000;
      const upRss = await upMem.stop();
      assert.equal(up.status, 201, JSON.stringify(body));
      assert.equal(body.data.size, size);
      assert.equal(body.data.filename, "流 s.bin");

      const down = await download(server, body.data.slug, size, "_ s.bin");
      console.log(
        `${STREAMED_MB} MiB: ${report("fetch upload", STREAMED_MB, upSeconds, upRss)}; ` +
          report("download", STREAMED_MB, down.seconds, down.rss),
      );
      assert.equal(down.bytes, size);
      assert.equal(down.sha256, sent.digest("hex"));
      assertFlat("upload", upRss);
      assertFlat("download", down.rss);
    });
  },
});
