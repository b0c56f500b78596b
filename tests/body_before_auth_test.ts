/**
 * No body is read before auth and routing: on the real server (main.ts on port 0), a request to
 * a route that does not exist answers 404 and an anonymous write answers 401 without waiting for
 * its body, both for a body that never ends and for 30 MiB bodies sent in parallel, and the
 * server's memory does not grow with them (peak RSS from /proc). An Idempotency-Key changes none
 * of this. A JSON body that stalls on a real route gets 408 after BODY_IDLE_TIMEOUT_MS.
 *
 * Requests go over raw TCP so that the test sees exactly when the server answers, whatever is
 * left of the body.
 */
import assert from "node:assert/strict";
import { startServer, type TestServer } from "./helpers/server.ts";
import { serverTest } from "./helpers/server_api.ts";
import { withDeadline } from "./helpers/wait.ts";
import { adminAuth, findServerPid, MiB, sampleRss } from "./shell/helpers.ts";

const BODY_BYTES = 30 * MiB;
const PARALLEL = 8;
/** Allowed growth of the server's peak RSS while it answers every big request. */
const MAX_GROWTH_MB = 120;
const CHUNK = new Uint8Array(MiB).fill(0x61);

type Sent = { status: number; head: string };

/**
 * Sends a request head and then its body from `body()` while reading the answer; resolves with
 * the status once the answer's head arrived, then closes the connection (which ends any write
 * still waiting). `body` keeps writing until told to stop or the connection closes.
 */
async function send(server: TestServer, head: string, body: (conn: Deno.Conn) => Promise<void>) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  const enc = new TextEncoder();
  await conn.write(enc.encode(head));
  const writing = body(conn).catch(() => {}); // the server may close while we still write
  let text = "";
  const buf = new Uint8Array(16 * 1024);
  try {
    while (!text.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
  } finally {
    conn.close();
  }
  await writing;
  const status = Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
  return { status, head: text } satisfies Sent;
}

/** Writes `total` bytes (or, with Infinity, one chunk and then nothing, forever). */
function bodyOf(total: number) {
  return async (conn: Deno.Conn) => {
    if (total === Infinity) {
      await conn.write(CHUNK.subarray(0, 64 * 1024));
      return; // never the rest
    }
    for (let sent = 0; sent < total;) {
      const n = Math.min(CHUNK.length, total - sent);
      sent += await conn.write(CHUNK.subarray(0, n));
    }
  };
}

function requestHead(path: string, length: number, extra: Record<string, string> = {}) {
  const lines = [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Idempotency-Key: ${crypto.randomUUID()}`,
    `Content-Length: ${length}`,
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Fails instead of hanging when an answer never comes (a deadline, never a wait). */
function answered<T>(p: Promise<T>, what: string): Promise<T> {
  return withDeadline(p, 60_000, `${what}: no answer within 60 s`);
}

serverTest(
  "404 and 401 answer at once, whatever the body; the server's memory stays flat",
  async () => {
    await using server = await startServer({ BODY_IDLE_TIMEOUT_MS: "300" });
    const pid = await findServerPid(server.dataDir);
    const targets = ["/api/no-such-route", "/api/paste"];
    const expected = [404, 401];

    // A body that never ends, announced with a length and chunked.
    for (const [i, path] of targets.entries()) {
      const fixed = await answered(
        send(server, requestHead(path, BODY_BYTES), bodyOf(Infinity)),
        `never-ending body to ${path}`,
      );
      assert.equal(fixed.status, expected[i], fixed.head);
      const chunkedHead = requestHead(path, 0).replace(
        "Content-Length: 0",
        "Transfer-Encoding: chunked",
      );
      const chunked = await answered(
        send(server, chunkedHead, async (conn) => {
          await conn.write(new TextEncoder().encode("10000\r\n"));
          await conn.write(CHUNK.subarray(0, 0x10000));
        }),
        `never-ending chunked body to ${path}`,
      );
      assert.equal(chunked.status, expected[i], chunked.head);
    }

    // Many whole 30 MiB bodies at once.
    const mem = await sampleRss(pid);
    const all = await answered(
      Promise.all(
        targets.flatMap((path, i) =>
          Array.from(
            { length: PARALLEL },
            () =>
              send(server, requestHead(path, BODY_BYTES), bodyOf(BODY_BYTES)).then((r) => ({
                ...r,
                expected: expected[i],
              })),
          )
        ),
      ),
      "30 MiB bodies",
    );
    const rss = await mem.stop();
    const growth = (rss.peak - rss.start) / MiB;
    console.log(
      `${all.length} × 30 MiB: peak RSS ${(rss.peak / MiB).toFixed(0)} MiB ` +
        `(from ${(rss.start / MiB).toFixed(0)}, +${growth.toFixed(0)} MiB)`,
    );
    assert.ok(growth < MAX_GROWTH_MB, `server peak RSS grew by ${growth.toFixed(0)} MiB`);
    for (const r of all) assert.equal(r.status, r.expected, r.head);

    // An admin's JSON body that stalls on a real route: 408 once the idle time passed.
    const auth = await adminAuth(server);
    const stalled = await answered(
      send(
        server,
        requestHead("/api/paste", 1000, { Authorization: auth }),
        (conn) => conn.write(new TextEncoder().encode('{"content":"')).then(() => {}),
      ),
      "stalled JSON body",
    );
    assert.equal(stalled.status, 408, stalled.head);
  },
);
