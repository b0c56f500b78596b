/**
 * Idempotency-Key on uploads: the body is hashed as it streams to storage (never buffered), the
 * key is claimed before the body is read, and a repeat is compared by its own bytes.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  await using t = await createTestApp();
  await fn(t);
}

Deno.test("a raw upload without a media type (curl -T) is known by its bytes, not its length", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    // No content type, like `curl -T`: the body streams to storage and is hashed on its way.
    const upload = (body: string) =>
      t.request("/api/upload-direct/raw.bin", {
        method: "PUT",
        auth,
        body: new TextEncoder().encode(body),
        headers: { "Idempotency-Key": "raw-1", "content-length": String(body.length) },
      });
    const first = await upload("first body");
    assert.equal(first.status, 201, await first.clone().text());
    const u1 = await first.json();
    const same = await upload("first body");
    assert.equal(same.headers.get("Idempotent-Replayed"), "true");
    assert.deepEqual(await same.json(), u1);
    // The same length with other bytes is another request; the first file stays as it was.
    const other = await upload("other body");
    assert.equal(other.status, 422);
    assert.equal((await other.json()).error, "idempotency_key_reused");
    const stored = await t.request(`/api/file-download/${u1.data.slug}`);
    assert.equal(await stored.text(), "first body");
    const files = await (await t.request("/api/files", { auth })).json();
    assert.equal(files.data.items.length, 1);
  });
});

Deno.test("uploads to S3 (s3rver) keep their reply too, with and without a Content-Length", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const auth = await t.adminAuth();
  const cfg = await t.createS3rverConfig(s3);
  const bytes = new Uint8Array(6 * 1024 * 1024).map((_, i) => i * 7);
  // With a length the body goes up in one PutObject; without one, in multipart parts.
  const sized = () => bytes.slice();
  const unsized = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, 3 * 1024 * 1024));
        c.enqueue(bytes.slice(3 * 1024 * 1024));
        c.close();
      },
    });
  for (const [name, body] of [["sized", sized], ["unsized", unsized]] as const) {
    const upload = () =>
      t.request(`/api/upload-direct/${name}.bin?s3_config_id=${cfg.id}`, {
        method: "PUT",
        auth,
        body: body(),
        headers: { "Idempotency-Key": `s3-${name}`, "content-type": "application/octet-stream" },
        // @ts-ignore: Deno's RequestInit takes duplex for stream bodies
        duplex: "half",
      });
    const first = await upload();
    assert.equal(first.status, 201, await first.clone().text());
    const again = await upload();
    assert.equal(again.headers.get("Idempotent-Replayed"), "true", name);
    assert.deepEqual(await again.json(), await first.json());
  }
  const files = await (await t.request("/api/files", { auth })).json();
  assert.equal(files.data.items.length, 2);
});

Deno.test("an upload repeated while the first still streams gets 409, then its reply", async () => {
  await withApp(async (t) => {
    const auth = await t.adminAuth();
    const bytes = new TextEncoder().encode("first half|second half");
    const send = (body: BodyInit) =>
      t.request("/api/upload-direct/slow.bin", {
        method: "PUT",
        auth,
        body,
        headers: { "Idempotency-Key": "slow", "content-type": "application/octet-stream" },
        // @ts-ignore: Deno's RequestInit takes duplex for stream bodies
        duplex: "half",
      });
    let reading!: () => void;
    const started = new Promise<void>((resolve) => reading = resolve);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => finish = resolve);
    let pulls = 0;
    const first = send(
      new ReadableStream<Uint8Array>({
        async pull(c) {
          if (pulls++ === 0) {
            c.enqueue(bytes.slice(0, 11));
            reading(); // the handler reads the body: the key was claimed before
            return;
          }
          await finished;
          c.enqueue(bytes.slice(11));
          c.close();
        },
      }, { highWaterMark: 0 }),
    );
    await started;
    const busy = await send(bytes.slice());
    assert.equal(busy.status, 409);
    assert.equal((await busy.json()).error, "idempotency_in_progress");
    finish();
    const done = await first;
    assert.equal(done.status, 201, await done.clone().text());
    const again = await send(bytes.slice());
    assert.equal(again.headers.get("Idempotent-Replayed"), "true");
    assert.deepEqual(await again.json(), await done.json());
  });
});
