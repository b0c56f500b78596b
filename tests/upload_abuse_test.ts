/**
 * One request must never end the server process. Busboy and the body streams call back from
 * their own event-loop turns, where a throw is uncaught and ends Deno; these forms once did that
 * (a declared size that the file exceeds, a file over the size limit, forms cut short at any byte,
 * a client that hangs up mid-file). Each case runs against the real server, which must answer
 * every request with a 4xx and still answer afterwards, with no uncaught error in its log.
 */
import assert from "node:assert/strict";
import { loginAdmin, startServer, type TestServer } from "./helpers/server.ts";
import { createServerMount } from "./helpers/server_api.ts";
import { concatBytes } from "../shared/e2e/bytes.ts";

const BOUNDARY = "----cubby-abuse-5b1e";
const enc = new TextEncoder();

type Part = [name: string, value: string] | [name: string, bytes: Uint8Array, filename: string];

/** A multipart body with the parts in the given order. */
function form(parts: Part[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    const file = p.length === 3
      ? `; filename="${p[2]}"\r\nContent-Type: application/octet-stream`
      : "";
    chunks.push(
      enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p[0]}"${file}\r\n\r\n`),
    );
    chunks.push(typeof p[1] === "string" ? enc.encode(p[1]) : p[1], enc.encode("\r\n"));
  }
  chunks.push(enc.encode(`--${BOUNDARY}--\r\n`));
  return concatBytes(chunks);
}

const megabyte = () => new Uint8Array(1024 * 1024).map((_, i) => (i * 31) & 0xff);

async function send(server: TestServer, path: string, auth: string, body: BodyInit) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: auth, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** The server still answers, and nothing it logged was uncaught. */
async function assertAlive(server: TestServer, after: string) {
  const res = await fetch(`${server.url}/api/version`);
  assert.equal(res.status, 200, `server stopped answering after ${after}:\n${server.output()}`);
  await res.body?.cancel();
  assert.doesNotMatch(server.output(), /Uncaught|error: Uncaught/, `after ${after}`);
}

async function apiKey(server: TestServer, token: string): Promise<string> {
  const res = await fetch(`${server.url}/api/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "abuse", permissions: { text: true, file: true } }),
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return `ApiKey ${body.data.key}`;
}

Deno.test("upload forms that once ended the process: size mismatch, over the limit, cut short, hung up", async () => {
  await using server = await startServer();
  const admin = `Bearer ${await loginAdmin(server)}`;
  const key = await apiKey(server, await loginAdmin(server));
  await createServerMount(server, "/abuse");
  const file = megabyte();

  // The report's request: the storage field first (the file streams), then a size the file
  // exceeds; the stream is cancelled while busboy still has data for it.
  const mismatch = await send(
    server,
    "/api/upload",
    key,
    form([["s3_config_id", ""], ["size", "10"], ["file", file, "1m.bin"]]) as BodyInit,
  );
  assert.equal(mismatch.status, 400, mismatch.text);
  await assertAlive(server, "a declared size the file exceeds");

  // An honest upload over the size limit, in the same field order.
  const limit = await fetch(`${server.url}/api/admin/settings/group/1`, {
    method: "PUT",
    headers: { authorization: admin, "content-type": "application/json" },
    body: JSON.stringify({ max_upload_size: 100, max_upload_size_unit: "KB" }),
  });
  assert.ok(limit.ok, await limit.text());
  for (const path of ["/api/upload", "/api/fs/upload"]) {
    const fields: Part[] = path === "/api/upload"
      ? [["s3_config_id", ""], ["file", file, "big.bin"]]
      : [["path", "/abuse/"], ["file", file, "big.bin"]];
    const over = await send(server, path, admin, form(fields) as BodyInit);
    assert.equal(over.status, 413, `${path}: ${over.text}`);
    await assertAlive(server, `an upload over the limit to ${path}`);
  }

  // Forms cut short at every kind of point: in a part's headers, in a field, in the file, and
  // just before the closing boundary; with the file streamed and with it spooled.
  const small = file.subarray(0, 50_000);
  const streamed = form([["s3_config_id", ""], ["file", small, "a.bin"], ["remark", "late"]]);
  const spooled = form([["file", small, "a.bin"], ["s3_config_id", ""], ["remark", "late"]]);
  for (const [name, body] of [["streamed", streamed], ["spooled", spooled]] as const) {
    for (const cut of [10, 60, 130, 200, 5_000, 49_000, body.length - 60, body.length - 3]) {
      const res = await send(server, "/api/upload", key, body.slice(0, cut) as BodyInit);
      assert.ok(res.status >= 400 && res.status < 500, `${name} cut at ${cut}: ${res.status}`);
      await assertAlive(server, `a ${name} form cut at byte ${cut}`);
    }
  }

  // A client that hangs up in the middle of the file.
  const hangUp = new AbortController();
  let sent = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent === 0) c.enqueue(form([["s3_config_id", ""]]).subarray(0, -(BOUNDARY.length + 6)));
      c.enqueue(small);
      if (++sent === 20) hangUp.abort();
    },
  });
  await fetch(`${server.url}/api/upload`, {
    method: "POST",
    headers: { authorization: key, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: endless,
    signal: hangUp.signal,
  }).then((r) => r.body?.cancel(), () => {});
  await assertAlive(server, "a client that hung up mid-file");
});
