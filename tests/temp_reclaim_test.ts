/**
 * Issue 8, finding 6: a real server killed with SIGKILL in the middle of uploads leaves their
 * temp files (the local driver's `.cubby-tmp/` and the form spool); they are reclaimed at the
 * next start and by the sweeper once stale, while the temp files of live uploads are never
 * touched however old they look.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loginAdmin, startServer } from "./helpers/server.ts";
import { waitFor } from "./helpers/wait.ts";

const TWO_HOURS_AGO = () => new Date(Date.now() - 2 * 3600_000);

async function namesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isFile) out.push(e.name);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.sort();
}

/** Starts a request whose body sends `first` and then stalls until `signal` aborts. */
function stalledRequest(url: string, init: RequestInit, first: Uint8Array, signal: AbortSignal) {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(first);
    },
  });
  return fetch(url, { ...init, body, signal }).then((r) => r.body?.cancel(), () => {});
}

Deno.test("kill -9 mid-upload: temp and spool files are reclaimed at start and by the sweeper", async () => {
  const server = await startServer({ SWEEP_INTERVAL_MS: "200" });
  const abort = new AbortController();
  try {
    const token = await loginAdmin(server);
    const tmpDir = join(server.dataDir, "storage", ".cubby-tmp");
    const spoolDir = join(server.dataDir, "spool");
    const auth = { authorization: `Bearer ${token}` };

    // A raw upload streams into the local driver's temp file…
    const raw = stalledRequest(
      `${server.url}/api/upload-direct/big.bin`,
      { method: "PUT", headers: auth },
      new Uint8Array(64 * 1024).fill(1),
      abort.signal,
    );
    const [tmpName] = await waitFor("a driver temp file", async () => {
      const n = await namesIn(tmpDir);
      return n.length === 1 ? n : null;
    });
    // …and a form that sends its file first is spooled.
    const boundary = "----reclaim-test";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\n\r\n` +
        "x".repeat(64 * 1024),
    );
    const form = stalledRequest(
      `${server.url}/api/upload`,
      {
        method: "POST",
        headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      },
      head,
      abort.signal,
    );
    const [spoolName] = await waitFor("a spool file", async () => {
      const n = await namesIn(spoolDir);
      return n.length === 1 ? n : null;
    });

    // Live uploads keep their files even when they look hours old to the sweeper.
    await Deno.utime(join(tmpDir, tmpName), TWO_HOURS_AGO(), TWO_HOURS_AGO());
    await Deno.utime(join(spoolDir, spoolName), TWO_HOURS_AGO(), TWO_HOURS_AGO());
    await new Promise((r) => setTimeout(r, 1800)); // the first sweep runs after 1 s, then every 200 ms
    assert.deepEqual(await namesIn(tmpDir), [tmpName]);
    assert.deepEqual(await namesIn(spoolDir), [spoolName]);

    await server.kill9();
    abort.abort();
    await Promise.all([raw, form]);
    assert.deepEqual(await namesIn(tmpDir), [tmpName], "kill -9 leaves the temp file");
    assert.deepEqual(await namesIn(spoolDir), [spoolName], "kill -9 leaves the spool file");
    // On a loaded machine the server may have written its last bytes after the utime above:
    // age both files again now that nothing can write them.
    await Deno.utime(join(tmpDir, tmpName), TWO_HOURS_AGO(), TWO_HOURS_AGO());
    await Deno.utime(join(spoolDir, spoolName), TWO_HOURS_AGO(), TWO_HOURS_AGO());
    // A temp file written a moment ago may belong to someone else: it is kept.
    await Deno.writeTextFile(join(tmpDir, "recent.tmp"), "still being written elsewhere");

    await server.restart({ SWEEP_INTERVAL_MS: "0" }); // only the start-up pass runs
    assert.deepEqual(await namesIn(tmpDir), ["recent.tmp"], "start reclaims the stale temp file");
    assert.deepEqual(await namesIn(spoolDir), [], "start reclaims the stale spool file");
    assert.match(server.output(), /Removed 2 stale upload temp file\(s\)\./);

    // The sweeper reclaims what goes stale while the server runs.
    await server.restart({ SWEEP_INTERVAL_MS: "200" });
    assert.deepEqual(await namesIn(tmpDir), ["recent.tmp"]);
    await Deno.utime(join(tmpDir, "recent.tmp"), TWO_HOURS_AGO(), TWO_HOURS_AGO());
    await waitFor("the sweeper to reclaim recent.tmp", async () => {
      return (await namesIn(tmpDir)).length === 0 ? true : null;
    });
    // Uploads still work after all that.
    const ok = await fetch(`${server.url}/api/upload-direct/after.txt`, {
      method: "PUT",
      headers: auth,
      body: "fine",
    });
    assert.equal(ok.status, 201, await ok.text());
  } finally {
    abort.abort();
    await server.stop();
  }
});
