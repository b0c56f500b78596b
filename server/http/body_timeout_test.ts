/**
 * A body that stops arriving gets an answer: 408 `request_body_timeout` once no byte came for
 * the configured idle time, for JSON bodies and streamed uploads, with an Idempotency-Key or
 * without; a claimed key is released, so a retry runs.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { withDeadline } from "../../tests/helpers/wait.ts";

const IDLE_MS = 150;

/** A body that sends `first` and then nothing, until it is cancelled (which it reports). */
function stalledBody(first: string) {
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((resolve) => cancelled = resolve);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
    cancel() {
      cancelled();
    },
  });
  return { stream, wasCancelled };
}

async function sendStalled(
  t: TestApp,
  path: string,
  init: { method: string; auth: string; type: string; first: string; key?: string },
) {
  const body = stalledBody(init.first);
  const headers: Record<string, string> = { "content-type": init.type };
  if (init.key) headers["Idempotency-Key"] = init.key;
  // Only a broken server reaches the deadline; the answer itself is awaited, not a time.
  const res = await withDeadline(
    t.request(path, {
      method: init.method,
      auth: init.auth,
      body: body.stream,
      headers,
      // @ts-ignore: Deno's RequestInit takes duplex for stream bodies
      duplex: "half",
    }),
    20_000,
    `${init.method} ${path}: no answer within 20 s`,
  );
  const text = await res.text();
  await body.wasCancelled;
  // Byte routes (the presigned local PUT) answer errors as plain text.
  const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : { text };
  return { status: res.status, json };
}

/** Asserts a reply is the JSON 408 of a body that stopped arriving. */
function assertBodyTimeout(res: Awaited<ReturnType<typeof sendStalled>>) {
  assert.equal(res.status, 408, JSON.stringify(res.json));
  assert.equal(res.json.error, "request_body_timeout");
}

Deno.test("a stalled JSON body answers 408, with a key or without", async () => {
  await using t = await createTestApp({}, { bodyIdleTimeoutMs: IDLE_MS });
  const auth = await t.adminAuth();
  for (const key of ["stalled-json", undefined]) {
    const res = await sendStalled(t, "/api/paste", {
      method: "POST",
      auth,
      type: "application/json",
      first: '{"content":"hel',
      key,
    });
    assertBodyTimeout(res);
  }
  // The key was released: the same key with a whole body runs.
  const retry = await t.request("/api/paste", {
    method: "POST",
    auth,
    json: { content: "hello" },
    headers: { "Idempotency-Key": "stalled-json" },
  });
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get("Idempotent-Replayed"), null);
});

Deno.test("a stalled upload answers 408 and stores nothing, with a key or without", async () => {
  await using t = await createTestApp({}, { bodyIdleTimeoutMs: IDLE_MS });
  const auth = await t.adminAuth();
  for (const key of ["stalled-upload", undefined]) {
    const direct = await sendStalled(t, "/api/upload-direct/stall.bin", {
      method: "PUT",
      auth,
      type: "application/octet-stream",
      first: "some bytes",
      key,
    });
    assertBodyTimeout(direct);
    const boundary = "stall-boundary";
    const multipart = await sendStalled(t, "/api/upload", {
      method: "POST",
      auth,
      type: `multipart/form-data; boundary=${boundary}`,
      first: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nab`,
      key,
    });
    assertBodyTimeout(multipart);
  }
  // A PUT to a presigned local URL (no principal, no key) gets the same answer.
  const presign = await t.request("/api/s3/presign", {
    method: "POST",
    auth,
    json: { filename: "p.bin", size: 100 },
  });
  const url = new URL((await presign.json()).data.upload_url);
  const signed = await sendStalled(t, url.pathname + url.search, {
    method: "PUT",
    auth: "",
    type: "application/octet-stream",
    first: "part of it",
  });
  assert.equal(signed.status, 408, JSON.stringify(signed.json));
  assert.match(signed.json.text, /1 秒/);
  const files = await (await t.request("/api/files", { auth })).json();
  assert.equal(files.data.items.length, 0);
  const retry = await t.request("/api/upload-direct/stall.bin", {
    method: "PUT",
    auth,
    body: "now whole",
    headers: { "Idempotency-Key": "stalled-upload", "content-type": "text/plain" },
  });
  assert.equal(retry.status, 201, await retry.clone().text());
  assert.equal(retry.headers.get("Idempotent-Replayed"), null);
});

Deno.test("a JSON body over the route's limit is 413 with a key too", async () => {
  await using t = await createTestApp();
  const auth = await t.adminAuth();
  const big = JSON.stringify({ name: "k", permissions: { text: true }, pad: "x".repeat(17 << 20) });
  for (const key of ["big", undefined]) {
    const res = await t.request("/api/admin/api-keys", {
      method: "POST",
      auth,
      body: big,
      headers: { "content-type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error, "payload_too_large");
  }
});
