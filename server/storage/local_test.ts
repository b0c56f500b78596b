/**
 * Local-driver-only cases: containment (traversal and symlinks), atomic writes, the driver's
 * own multipart staging, reserved names, signing, and a 200 MB stream in bounded memory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { LocalDriver } from "./local.ts";
import { withLocalDriver } from "../../tests/helpers/local_driver.ts";
import { signStorageQuery, verifyStorageQuery } from "./signing.ts";

const MiB = 1024 * 1024;

async function rejectsWith(p: Promise<unknown>, code: string, status: number) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.deepEqual([err.code, err.status], [code, status]);
    return true;
  });
}

function withDriver(fn: (d: LocalDriver, root: string) => Promise<void>) {
  return withLocalDriver(fn, { signingSecret: "s3cret", urlPrefix: "/api/storage/local/c1" });
}

async function text(d: LocalDriver, key: string) {
  return await new Response((await d.get(key)).body).text();
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

Deno.test("local: symlinks cannot reach outside the root", async () => {
  await withDriver(async (d, root) => {
    const outside = join(root, "..", "outside");
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(outside, "secret.txt"), "top secret");
    await d.put("inside/ok.txt", "fine");
    await Deno.symlink(outside, join(root, "linkdir"));
    await Deno.symlink(join(outside, "secret.txt"), join(root, "inside", "secret-link.txt"));
    await Deno.symlink(join(root, "inside", "ok.txt"), join(root, "inside", "good-link.txt"));

    await rejectsWith(d.get("linkdir/secret.txt"), "storage_path_invalid", 400);
    await rejectsWith(d.head("linkdir/secret.txt"), "storage_path_invalid", 400);
    await rejectsWith(d.get("inside/secret-link.txt"), "storage_path_invalid", 400);
    await rejectsWith(d.put("linkdir/new.txt", "x"), "storage_path_invalid", 400);
    await rejectsWith(d.put("linkdir/deep/new.txt", "x"), "storage_path_invalid", 400);
    await rejectsWith(d.copy("inside/ok.txt", "linkdir/copy.txt"), "storage_path_invalid", 400);
    await rejectsWith(d.move("inside/ok.txt", "linkdir/moved.txt"), "storage_path_invalid", 400);
    await rejectsWith(d.delete("linkdir/secret.txt"), "storage_path_invalid", 400);
    await rejectsWith(d.list("linkdir/"), "storage_path_invalid", 400);
    await rejectsWith(d.deletePrefix("linkdir/"), "storage_path_invalid", 400);
    assert.deepEqual(await names(outside), ["secret.txt"], "nothing was written outside");
    assert.equal(await Deno.readTextFile(join(outside, "secret.txt")), "top secret");

    // a link that stays inside the root is an ordinary object; the others are not listed
    assert.equal(await text(d, "inside/good-link.txt"), "fine");
    const listed = await d.list("", {});
    assert.deepEqual(listed.items.map((i) => i.key), ["inside/good-link.txt", "inside/ok.txt"]);
    assert.deepEqual((await d.list("", { delimiter: "/" })).prefixes, ["inside/"]);
  });
});

Deno.test("local: reserved .cubby-* names are neither keys nor listed", async () => {
  await withDriver(async (d, root) => {
    await d.put("a.txt", "a");
    const id = await d.createMultipart("b.bin");
    await d.uploadPart("b.bin", id, 1, "part");
    for (const key of [".cubby-tmp/x", ".cubby-multipart/x", ".cubby-anything"]) {
      await rejectsWith(d.put(key, "x"), "storage_path_invalid", 400);
      await rejectsWith(d.get(key), "storage_path_invalid", 400);
    }
    assert.ok((await names(root)).includes(".cubby-multipart"));
    assert.deepEqual((await d.list("")).items.map((i) => i.key), ["a.txt"]);
    const top = await d.list("", { delimiter: "/" });
    assert.deepEqual([top.items.map((i) => i.key), top.prefixes], [["a.txt"], []]);
    assert.deepEqual((await d.list(".cubby")).items, []);
    // a dot-folder deeper down is an ordinary folder
    await d.put("x/.cubby-tmp/y", "fine");
    assert.equal(await text(d, "x/.cubby-tmp/y"), "fine");
  });
});

Deno.test("local: writes are atomic (temp file, then rename)", async () => {
  await withDriver(async (d, root) => {
    await d.put("doc.txt", "old content");
    let release!: () => void;
    const gate = new Promise<void>((r) => release = r);
    const slow = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(new TextEncoder().encode("new "));
        await gate;
        c.enqueue(new TextEncoder().encode("content"));
        c.close();
      },
    });
    const writing = d.put("doc.txt", slow);
    while ((await names(join(root, ".cubby-tmp"))).length === 0) {
      await new Promise((r) => setTimeout(r, 1)); // until the temp file exists
    }
    assert.equal(await text(d, "doc.txt"), "old content", "readers see the old object meanwhile");
    release();
    await writing;
    assert.equal(await text(d, "doc.txt"), "new content");
    assert.deepEqual(await names(join(root, ".cubby-tmp")), [], "no temp file is left");
  });
});

Deno.test("local: a failed or aborted write leaves the old object and no temp file", async () => {
  await withDriver(async (d, root) => {
    await d.put("doc.txt", "old content");
    const failing = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(10));
        c.error(new Error("client went away"));
      },
    });
    await assert.rejects(d.put("doc.txt", failing), /client went away/);

    const ac = new AbortController();
    const endless = new ReadableStream<Uint8Array>({
      async pull(c) {
        await new Promise((r) => setTimeout(r, 5));
        try {
          c.enqueue(new Uint8Array(1024));
        } catch { /* cancelled by the driver meanwhile */ }
      },
    });
    const aborted = d.put("doc.txt", endless, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error("cancelled")), 30);
    await assert.rejects(aborted, /cancelled/);

    await rejectsWith(d.put("doc.txt", "12345", { size: 4 }), "storage_size_mismatch", 400);
    assert.equal(await text(d, "doc.txt"), "old content");
    assert.deepEqual(await names(join(root, ".cubby-tmp")), []);
  });
});

Deno.test("local: a file and a folder cannot share a name (409)", async () => {
  await withDriver(async (d) => {
    await d.put("f", "file");
    await rejectsWith(d.put("f/g.txt", "x"), "storage_conflict", 409);
    await d.put("dir/inner.txt", "x");
    await rejectsWith(d.put("dir", "x"), "storage_conflict", 409);
    await rejectsWith(d.copy("f", "dir"), "storage_conflict", 409);
    assert.equal(await d.head("dir"), null, "a folder is not an object");
    await rejectsWith(d.get("dir"), "storage_object_not_found", 404);
    await d.delete("dir"); // deleting a folder name as an object does nothing
    assert.equal(await text(d, "dir/inner.txt"), "x");
  });
});

Deno.test("local: deleting the last object removes the folders it leaves empty", async () => {
  await withDriver(async (d, root) => {
    await d.put("a/b/c/file.txt", "x");
    await d.put("a/keep.txt", "x");
    await d.delete("a/b/c/file.txt");
    assert.deepEqual(await names(join(root, "a")), ["keep.txt"]);
    await d.move("a/keep.txt", "z/keep.txt");
    assert.ok(!(await names(root)).includes("a"));
  });
});

Deno.test("local: multipart is staged under .cubby-multipart and assembled by streaming", async () => {
  await withDriver(async (d, root) => {
    const key = "up/file.bin";
    const uploadId = await d.createMultipart(key);
    const staging = join(root, ".cubby-multipart", uploadId);
    assert.deepEqual(await names(staging), ["upload.json"]);
    const p1 = await d.uploadPart(key, uploadId, 1, new Uint8Array(5 * MiB).fill(1));
    const first2 = await d.uploadPart(key, uploadId, 2, "first try");
    const p2 = await d.uploadPart(key, uploadId, 2, "second try"); // replaces part 2
    assert.notEqual(first2.etag, p2.etag);
    assert.deepEqual(await names(staging), ["part-00001", "part-00002", "upload.json"]);

    await rejectsWith(
      d.uploadPart("up/other.bin", uploadId, 3, "x"),
      "storage_upload_not_found",
      404,
    );
    await rejectsWith(d.uploadPart(key, "../../etc", 1, "x"), "storage_upload_not_found", 404);
    await rejectsWith(d.uploadPart(key, uploadId, 0, "x"), "storage_multipart_invalid", 400);
    await rejectsWith(d.uploadPart(key, uploadId, 10_001, "x"), "storage_multipart_invalid", 400);
    await rejectsWith(
      d.completeMultipart(key, uploadId, [{ partNumber: 2, ...p2 }, { partNumber: 1, ...p1 }]),
      "storage_multipart_invalid",
      400,
    );
    await rejectsWith(
      d.completeMultipart(key, uploadId, [{ partNumber: 1, ...first2 }]),
      "storage_multipart_invalid",
      400,
    );
    await rejectsWith(d.completeMultipart(key, uploadId, []), "storage_multipart_invalid", 400);

    const small = await d.createMultipart("up/small.bin");
    const s1 = await d.uploadPart("up/small.bin", small, 1, "tiny");
    const s2 = await d.uploadPart("up/small.bin", small, 2, "tail");
    await rejectsWith(
      d.completeMultipart("up/small.bin", small, [{ partNumber: 1, ...s1 }, {
        partNumber: 2,
        ...s2,
      }]),
      "storage_multipart_invalid",
      400,
    );
    await d.abortMultipart("up/small.bin", small);

    const done = await d.completeMultipart(key, uploadId, [
      { partNumber: 1, etag: p1.etag.replaceAll('"', "") }, // quotes do not matter
      { partNumber: 2, etag: p2.etag },
    ]);
    assert.equal(done.size, 5 * MiB + 10);
    assert.equal((await d.head(key))?.etag, done.etag);
    const tail = await d.get(key, { range: { start: 5 * MiB } });
    assert.equal(await new Response(tail.body).text(), "second try");
    assert.deepEqual(await names(join(root, ".cubby-multipart")), [], "staging is removed");
    assert.deepEqual(await names(join(root, ".cubby-tmp")), []);
  });
});

Deno.test("local: verifySignedRequest binds key, op, parameters and expiry", async () => {
  await withDriver(async (d) => {
    const get = new URL(
      await d.presignGet("a b/ü#?.txt", {
        expiresIn: 60,
        filename: "x.txt",
        contentType: "text/plain",
        download: true,
      }),
      "https://cubby.example",
    );
    assert.ok(get.pathname.startsWith("/api/storage/local/c1/a%20b/%C3%BC%23%3F.txt"));
    assert.deepEqual(d.verifySignedRequest(get, "HEAD"), {
      op: "get",
      key: "a b/ü#?.txt",
      filename: "x.txt",
      contentType: "text/plain",
      download: true,
      size: undefined,
      uploadId: undefined,
      partNumber: undefined,
    });
    const bad = (mutate: (u: URL) => void) => {
      const u = new URL(get);
      mutate(u);
      return () => d.verifySignedRequest(u, "GET");
    };
    assert.throws(bad((u) => u.searchParams.set("filename", "evil.html")), AppError);
    assert.throws(bad((u) => u.searchParams.delete("dl")), AppError);
    assert.throws(bad((u) => u.searchParams.append("op", "put")), AppError);
    assert.throws(bad((u) => u.searchParams.set("extra", "1")), AppError);
    assert.throws(bad((u) => u.pathname = u.pathname.replace("/c1/", "/c2/")), AppError);
    assert.throws(() => d.verifySignedRequest(get.toString(), "DELETE"), AppError);

    const part = await d.presignPart("k.bin", "01ARZ3NDEKTSV4RRFFQ69G5FAV", 7, { expiresIn: 60 });
    const signed = d.verifySignedRequest(part, "PUT");
    assert.deepEqual([signed.op, signed.uploadId, signed.partNumber], [
      "part",
      "01ARZ3NDEKTSV4RRFFQ69G5FAV",
      7,
    ]);
    const other = new LocalDriver({
      root: "/nonexistent",
      signingSecret: "another secret",
      configId: "c1",
      urlPrefix: "/api/storage/local/c1",
    });
    assert.throws(() => other.verifySignedRequest(part, "PUT"), /storage_signature_invalid/);
  });
});

Deno.test("signing: sign/verify round trip, tampering and expiry", () => {
  const now = 1_700_000_000_000;
  const q = signStorageQuery("secret", {
    scope: "cfg-a",
    op: "get",
    key: "a/b.txt",
    expiresIn: 60,
    params: { filename: "b.txt" },
    now,
  });
  const ok = verifyStorageQuery("secret", {
    scope: "cfg-a",
    op: "get",
    key: "a/b.txt",
    query: new URLSearchParams(q),
    now: now + 59_000,
  });
  assert.deepEqual(ok, { ok: true, params: { filename: "b.txt" }, expiresAt: now / 1000 + 60 });
  const verify = (
    over: Partial<{ scope: string; op: "get" | "put"; key: string; query: string; now: number }>,
  ) =>
    verifyStorageQuery(over.key === "" ? "" : "secret", {
      scope: over.scope ?? "cfg-a",
      op: over.op ?? "get",
      key: over.key ?? "a/b.txt",
      query: new URLSearchParams(over.query ?? q),
      now: over.now ?? now,
    });
  assert.deepEqual(verify({ now: now + 61_000 }), { ok: false, reason: "expired" });
  assert.deepEqual(verify({ op: "put" }), { ok: false, reason: "invalid" });
  assert.deepEqual(verify({ scope: "cfg-b" }), { ok: false, reason: "invalid" });
  assert.deepEqual(verify({ scope: "" }), { ok: false, reason: "invalid" });
  assert.deepEqual(verify({ key: "a/c.txt" }), { ok: false, reason: "invalid" });
  assert.deepEqual(verify({ query: q.replace("b.txt", "c.txt") }), {
    ok: false,
    reason: "invalid",
  });
  assert.deepEqual(verify({ query: q.replace(/sig=[^&]+/, "sig=") }), {
    ok: false,
    reason: "invalid",
  });
  assert.deepEqual(verify({ query: q + "&filename=x" }), { ok: false, reason: "invalid" });
  assert.deepEqual(verify({ query: q.replace(/exp=\d+/, "exp=99999999999") }), {
    ok: false,
    reason: "invalid",
  });
  const sign = (over: Record<string, unknown>) => () =>
    signStorageQuery("secret", { scope: "c", op: "get", key: "k", expiresIn: 5, ...over });
  assert.throws(sign({ expiresIn: 0 }));
  assert.throws(sign({ params: { sig: "x" } }));
  assert.throws(sign({ scope: "" }), /scope/);
});

Deno.test("local: a 200 MB generated stream is written with small RSS growth", async () => {
  await withDriver(async (d) => {
    const total = 200 * MiB;
    const chunk = 64 * 1024;
    // Data is generated on the fly into a small ring of buffers, so the source allocates
    // nothing per chunk; a driver that held on to chunks instead of writing them would
    // corrupt the content (each chunk is filled with its own index), and one that copied
    // them into memory would grow RSS by 200 MB.
    const generate = (chunks: number) => {
      const ring = Array.from({ length: 4 }, () => new Uint8Array(chunk));
      let n = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (n === chunks) return c.close();
          const buf = ring[n % ring.length];
          buf.fill(n & 0xff);
          n++;
          c.enqueue(buf);
        },
      }, { highWaterMark: 0 });
    };
    await d.put("warm-up.bin", generate(128)); // warms up the code paths before measuring
    await d.delete("warm-up.bin");
    // RSS is per process and `deno test --parallel` runs other modules beside this one, so a
    // reading above the bound is taken once more; this isolate's own off-heap memory
    // (`external`, where buffered chunks would live) must stay small every time.
    const growths: string[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const before = Deno.memoryUsage();
      const put = await d.put("huge.bin", generate(total / chunk), { size: total });
      const after = Deno.memoryUsage();
      assert.equal(put.size, total);
      const external = after.external - before.external;
      assert.ok(external < 16 * MiB, `external memory grew by ${(external / MiB).toFixed(1)} MiB`);
      growths.push(((after.rss - before.rss) / MiB).toFixed(1));
      if (after.rss - before.rss < 64 * MiB) break;
    }
    assert.ok(growths.length === 1 || Number(growths[1]) < 64, `RSS grew by ${growths} MiB`);
    // the content is right: every 64 KiB chunk holds its own index
    let offset = 0;
    for await (const part of (await d.get("huge.bin")).body) {
      for (let i = 0; i < part.length; i += 4096) {
        const expected = Math.floor((offset + i) / chunk) & 0xff;
        if (part[i] !== expected) assert.fail(`byte ${offset + i} is ${part[i]}, not ${expected}`);
      }
      offset += part.length;
    }
    assert.equal(offset, total);
  });
});

Deno.test("local: reads to the end, ranges and cancelled reads give the right bytes and close the file", async () => {
  await withDriver(async (d) => {
    const bytes = new Uint8Array(3 * MiB).map((_, i) => i % 251);
    await d.put("f.bin", new Blob([bytes]).stream(), { size: bytes.length });
    const read = async (range?: { start: number; end?: number }) =>
      new Uint8Array(await new Response((await d.get("f.bin", { range })).body).arrayBuffer());
    assert.deepEqual(await read(), bytes);
    assert.deepEqual(await read({ start: MiB }), bytes.subarray(MiB));
    assert.deepEqual(await read({ start: 5, end: 9 }), bytes.subarray(5, 10));
    assert.deepEqual(await read({ start: 2 * MiB, end: 3 * MiB - 1 }), bytes.subarray(2 * MiB));
    // Never read (HEAD), or left after the first chunk (a client gone): the file is closed,
    // which the test's resource sanitizer checks.
    await (await d.get("f.bin")).body.cancel();
    const reader = (await d.get("f.bin")).body.getReader();
    assert.ok((await reader.read()).value?.length);
    await reader.cancel();
    await d.delete("f.bin");
  });
});
