/**
 * The storage driver contract: the same cases run against the local driver (on a temporary
 * directory, with a tiny server standing in for the signed-URL route) and the S3 driver on two
 * servers: s3rver and SeaweedFS. Where s3rver lacks an S3 feature, the case says so in its name
 * and asserts the gap, so that a missing feature is never mistaken for a passing one; SeaweedFS
 * verifies SigV4 and implements ListParts, ListMultipartUploads and AbortMultipartUpload, so
 * there those cases run for real.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { AppError } from "../errors.ts";
import { contentDisposition } from "./driver_wire.ts";
import { type StorageDriver } from "./driver.ts";
import { LocalDriver } from "./local.ts";
import { S3Driver } from "./s3.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import { startSeaweedfs } from "../../tests/helpers/seaweedfs.ts";

const MiB = 1024 * 1024;

/** Where a run stores: s3rver has gaps (named in the cases), SeaweedFS behaves as S3 does. */
type Engine = "local" | "s3rver" | "seaweedfs";

type Harness = {
  kind: "local" | "s3";
  engine: Engine;
  driver: StorageDriver;
  cleanup: () => Promise<void>;
};

/** Random bytes of any length (getRandomValues fills at most 64 KiB per call). */
export function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

/** A stream of `bytes` in chunks of odd sizes, as a network body would arrive. */
export function chunked(bytes: Uint8Array, size = 64 * 1024 + 17): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i >= bytes.length) return c.close();
      c.enqueue(bytes.slice(i, i + size));
      i += size;
    },
  });
}

export async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest("hex");
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function text(driver: StorageDriver, key: string): Promise<string> {
  return await new Response((await driver.get(key)).body).text();
}

/** Asserts that a promise rejects with an AppError of this code and status. */
export async function rejectsWith(p: Promise<unknown>, code: string, status: number) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    return true;
  });
}

/** Runs `fn` over items with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** A stand-in for the signed local-storage route: verify, then call the driver. */
function serveLocalUrls(driver: () => LocalDriver): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    try {
      const signed = driver().verifySignedRequest(new URL(req.url), req.method);
      const length = req.headers.get("content-length");
      const size = length ? Number(length) : undefined;
      if (signed.op === "get") {
        const obj = await driver().get(signed.key);
        const headers = new Headers({ "content-type": signed.contentType ?? obj.contentType });
        if (signed.filename) {
          headers.set("content-disposition", contentDisposition(signed.filename, signed.download));
        }
        return new Response(obj.body, { headers });
      }
      const body = req.body ?? new Uint8Array();
      const { etag } = signed.op === "part"
        ? await driver().uploadPart(signed.key, signed.uploadId!, signed.partNumber!, body, size)
        : await driver().put(signed.key, body, { size, contentType: signed.contentType });
      return new Response(null, { headers: { etag } });
    } catch (err) {
      if (err instanceof AppError) return new Response(err.code, { status: err.status });
      throw err;
    }
  });
}

async function localHarness(): Promise<Harness> {
  const root = await Deno.makeTempDir({ prefix: "cubby-local-contract-" });
  let driver: LocalDriver | null = null;
  const server = serveLocalUrls(() => driver!);
  driver = new LocalDriver({
    root,
    signingSecret: "contract-secret",
    configId: "contract",
    urlPrefix: `http://127.0.0.1:${server.addr.port}/api/storage/local`,
  });
  return {
    kind: "local",
    engine: "local",
    driver,
    async cleanup() {
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    },
  };
}

async function s3Harness(engine: "s3rver" | "seaweedfs"): Promise<Harness> {
  const s3 = engine === "s3rver" ? await startS3rver() : await startSeaweedfs();
  const driver = new S3Driver({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    pathStyle: true,
    providerType: "other",
    partSize: 5 * MiB,
    multipartThreshold: 4 * MiB,
  });
  return {
    kind: "s3",
    engine,
    driver,
    async cleanup() {
      driver.close();
      await s3.stop();
    },
  };
}

function contract(name: string, setup: () => Promise<Harness>) {
  Deno.test({
    name: `storage contract: ${name}`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const h = await setup();
      const d = h.driver;
      const s3 = h.kind === "s3";
      const s3rver = h.engine === "s3rver";
      try {
        await t.step("put/get of a few MB streamed is byte-identical (size known)", async () => {
          const bytes = randomBytes(3 * MiB + 123);
          const put = await d.put("big/known.bin", chunked(bytes), { size: bytes.length });
          assert.equal(put.size, bytes.length);
          const got = await d.get("big/known.bin");
          assert.equal(got.size, bytes.length);
          assert.equal(got.etag, put.etag);
          assert.equal(await sha256Of(got.body), sha256(bytes));
        });

        await t.step("put/get streamed with unknown size (S3: multipart put)", async () => {
          const bytes = randomBytes(11 * MiB + 5);
          const put = await d.put("big/unknown.bin", chunked(bytes));
          assert.equal(put.size, bytes.length);
          assert.equal(await sha256Of((await d.get("big/unknown.bin")).body), sha256(bytes));
        });

        await t.step("a declared size that the stream does not match is refused", async () => {
          await d.put("big/short.bin", "the old object stays");
          await rejectsWith(
            d.put("big/short.bin", chunked(new Uint8Array(1000)), { size: 2000 }),
            "storage_size_mismatch",
            400,
          );
          await rejectsWith(
            d.put("big/long.bin", chunked(new Uint8Array(3000)), { size: 2000 }),
            "storage_size_mismatch",
            400,
          );
          if (!s3rver) {
            assert.equal(await text(d, "big/short.bin"), "the old object stays");
            assert.equal(await d.head("big/long.bin"), null);
          }
          // s3rver gap: it may store the bytes that arrived before the aborted PUT (real S3
          // stores nothing from an incomplete body), so that run checks only the refusal.
        });

        await t.step("ranges: first bytes, middle, start to end, past the end", async () => {
          const bytes = randomBytes(100_000);
          await d.put("range.bin", bytes);
          const read = async (start: number, end?: number) => {
            const r = await d.get("range.bin", { range: { start, end } });
            return { r, bytes: new Uint8Array(await new Response(r.body).arrayBuffer()) };
          };
          let x = await read(0, 9);
          assert.deepEqual(x.bytes, bytes.slice(0, 10));
          assert.deepEqual(x.r.range, { start: 0, end: 9, total: 100_000 });
          assert.equal(x.r.size, 10);
          x = await read(40_000, 49_999);
          assert.deepEqual(x.bytes, bytes.slice(40_000, 50_000));
          x = await read(99_900);
          assert.deepEqual(x.bytes, bytes.slice(99_900));
          assert.deepEqual(x.r.range, { start: 99_900, end: 99_999, total: 100_000 });
          x = await read(99_990, 5_000_000); // an end past the object is clamped
          assert.deepEqual(x.bytes, bytes.slice(99_990));
          await rejectsWith(
            d.get("range.bin", { range: { start: 100_000 } }),
            "storage_range_invalid",
            400,
          );
          await rejectsWith(
            d.get("range.bin", { range: { start: 10, end: 5 } }),
            "storage_range_invalid",
            400,
          );
        });

        await t.step("head reports size, etag and type; missing is null", async () => {
          const put = await d.put("docs/readme.txt", "hello world");
          const info = await d.head("docs/readme.txt");
          assert.ok(info);
          assert.equal(info.key, "docs/readme.txt");
          assert.equal(info.size, 11);
          assert.equal(info.etag, put.etag);
          assert.match(info.etag, /^".+"$/);
          assert.match(info.contentType ?? "", /^text\/plain/);
          assert.ok(info.lastModified instanceof Date);
          assert.ok(Math.abs(info.lastModified.getTime() - Date.now()) < 60_000);
          assert.equal(await d.head("docs/nope.txt"), null);
        });

        await t.step("a missing object is 404 storage_object_not_found", async () => {
          await rejectsWith(d.get("nope/missing.txt"), "storage_object_not_found", 404);
          await rejectsWith(d.copy("nope/missing.txt", "x.txt"), "storage_object_not_found", 404);
          await rejectsWith(d.move("nope/missing.txt", "x.txt"), "storage_object_not_found", 404);
        });

        await t.step("overwrite replaces content and etag", async () => {
          const a = await d.put("over.txt", "first version");
          const b = await d.put("over.txt", "second, longer version");
          assert.notEqual(a.etag, b.etag);
          assert.equal(await text(d, "over.txt"), "second, longer version");
          assert.equal((await d.head("over.txt"))?.size, 22);
        });

        await t.step("delete is idempotent", async () => {
          await d.put("gone/x.txt", "x");
          await d.delete("gone/x.txt");
          await d.delete("gone/x.txt");
          await d.delete("never/existed.txt");
          assert.equal(await d.head("gone/x.txt"), null);
          assert.deepEqual((await d.list("gone/", { delimiter: "/" })).items, []);
        });

        await t.step("list with a delimiter gives files and sub-prefixes", async () => {
          for (const k of ["d/a.txt", "d/b.txt", "d/sub/c.txt", "d/sub/x/e.txt", "d/sub2/f.txt"]) {
            await d.put(k, k);
          }
          await d.put("d-sibling.txt", "not under d/");
          const page = await d.list("d/", { delimiter: "/" });
          assert.deepEqual(page.items.map((i) => i.key), ["d/a.txt", "d/b.txt"]);
          assert.deepEqual(page.prefixes, ["d/sub/", "d/sub2/"]);
          assert.equal(page.cursor, null);
          assert.equal(page.items[0].size, 7);
          const all = await d.list("d/");
          assert.deepEqual(all.items.map((i) => i.key), [
            "d/a.txt",
            "d/b.txt",
            "d/sub/c.txt",
            "d/sub/x/e.txt",
            "d/sub2/f.txt",
          ]);
          assert.deepEqual(all.prefixes, []);
          const raw = await d.list("d/sub", { delimiter: "/" });
          assert.deepEqual(raw.prefixes, ["d/sub/", "d/sub2/"]);
          assert.deepEqual((await d.list("d/a")).items.map((i) => i.key), ["d/a.txt"]);
          assert.deepEqual(await d.list("no-such-folder/", { delimiter: "/" }), {
            items: [],
            prefixes: [],
            cursor: null,
          });
          const root = await d.list("", { delimiter: "/" });
          assert.ok(root.prefixes.includes("d/"));
          assert.ok(root.items.some((i) => i.key === "d-sibling.txt"));
        });

        await t.step("2,500 objects list completely through cursors (limit 1000)", async () => {
          const keys = Array.from(
            { length: 2500 },
            (_, i) => `many/k${String(i).padStart(5, "0")}`,
          );
          await pool(keys, 32, (k) => d.put(k, "x"));
          for (const delimiter of [undefined, "/" as const]) {
            const seen: string[] = [];
            const sizes: number[] = [];
            let cursor: string | null = null;
            do {
              const page = await d.list("many/", { limit: 1000, cursor, delimiter });
              assert.ok(page.items.length <= 1000);
              sizes.push(page.items.length);
              seen.push(...page.items.map((i) => i.key));
              cursor = page.cursor;
            } while (cursor);
            assert.deepEqual(seen, keys, `delimiter ${delimiter}`);
            assert.deepEqual(sizes, [1000, 1000, 500]);
          }
        });

        await t.step("copy keeps the source and duplicates the bytes", async () => {
          const bytes = randomBytes(50_000);
          await d.put("cp/src.bin", bytes);
          await d.copy("cp/src.bin", "cp/nested/dst.bin");
          assert.equal(await sha256Of((await d.get("cp/src.bin")).body), sha256(bytes));
          assert.equal(await sha256Of((await d.get("cp/nested/dst.bin")).body), sha256(bytes));
          await d.copy("cp/src.bin", "cp/src.bin"); // onto itself: a no-op
          assert.equal((await d.head("cp/src.bin"))?.size, 50_000);
        });

        await t.step("move removes the source", async () => {
          await d.put("mv/a.txt", "moving");
          await d.move("mv/a.txt", "mv/b/c.txt");
          assert.equal(await d.head("mv/a.txt"), null);
          assert.equal(await text(d, "mv/b/c.txt"), "moving");
        });

        await t.step("deletePrefix removes a folder and nothing beside it", async () => {
          for (const k of ["del/a.txt", "del/b/c.txt", "del/b/d/e.txt", "delx.txt", "del2/f"]) {
            await d.put(k, k);
          }
          await d.deletePrefix("del/");
          assert.deepEqual(await d.list("del/"), { items: [], prefixes: [], cursor: null });
          assert.equal(await text(d, "delx.txt"), "delx.txt");
          assert.equal(await text(d, "del2/f"), "del2/f");
          await d.deletePrefix("del/"); // again: nothing to do
          await rejectsWith(d.deletePrefix(""), "storage_path_invalid", 400);
        });

        await t.step("createFolder: an empty folder lists, then fills and deletes", async () => {
          await d.createFolder("made/empty");
          await d.createFolder("made/empty"); // again: fine
          assert.deepEqual((await d.list("made/", { delimiter: "/" })).prefixes, ["made/empty/"]);
          await d.put("made/empty/x.txt", "x");
          assert.equal(await text(d, "made/empty/x.txt"), "x");
          await d.put("made/file", "f");
          await rejectsWith(d.createFolder("made/file"), "storage_conflict", 409);
          await d.deletePrefix("made/");
          assert.deepEqual(await d.list("made/"), { items: [], prefixes: [], cursor: null });
        });

        await t.step("presigned GET fetched with plain fetch returns the bytes", async () => {
          const bytes = randomBytes(200_000);
          await d.put("share/photo.bin", bytes);
          const url = await d.presignGet("share/photo.bin", {
            expiresIn: 300,
            filename: "Übersicht 1.bin",
            download: true,
          });
          const res = await fetch(url);
          assert.equal(res.status, 200);
          assert.match(res.headers.get("content-disposition") ?? "", /^attachment;/);
          assert.match(res.headers.get("content-disposition") ?? "", /UTF-8''%C3%9Cbersicht%201/);
          assert.equal(sha256(new Uint8Array(await res.arrayBuffer())), sha256(bytes));
        });

        if (s3rver) {
          await t.step(
            "s3rver does not verify SigV4: a tampered presigned GET is served",
            async () => {
              const url = new URL(await d.presignGet("share/photo.bin", { expiresIn: 300 }));
              url.searchParams.set("X-Amz-Signature", "0".repeat(64));
              const res = await fetch(url);
              await res.body?.cancel();
              assert.equal(res.status, 200, "real S3 answers 403 SignatureDoesNotMatch");
            },
          );
        } else if (s3) {
          await t.step("SigV4 is verified: tampered presigned URLs are refused", async () => {
            const url = new URL(await d.presignGet("share/photo.bin", { expiresIn: 300 }));
            const badSig = new URL(url);
            badSig.searchParams.set("X-Amz-Signature", "0".repeat(64));
            const otherKey = new URL(url);
            otherKey.pathname = otherKey.pathname.replace("photo.bin", "other.bin");
            const longer = new URL(url);
            longer.searchParams.set("X-Amz-Expires", "3600");
            for (const u of [badSig, otherKey, longer]) {
              const res = await fetch(u);
              assert.equal(res.status, 403, `${u}: ${await res.text()}`);
            }
            const put = new URL(await d.presignPut("share/put.txt", { expiresIn: 300 }));
            const res = await fetch(put, { method: "GET" }); // signed for PUT, used for GET
            assert.equal(res.status, 403, await res.text());
          });
        } else {
          await t.step("local presigned GET: tampered or expired URLs are refused", async () => {
            const local = d as LocalDriver;
            const url = new URL(await d.presignGet("share/photo.bin", { expiresIn: 300 }));
            assert.equal(local.verifySignedRequest(url, "GET").key, "share/photo.bin");
            const otherKey = new URL(url);
            otherKey.pathname = otherKey.pathname.replace("photo.bin", "other.bin");
            const badSig = new URL(url);
            const sig = url.searchParams.get("sig")!;
            badSig.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
            const longer = new URL(url);
            longer.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
            for (const u of [otherKey, badSig, longer]) {
              assert.throws(() => local.verifySignedRequest(u, "GET"), /storage_signature_invalid/);
              const res = await fetch(u);
              assert.equal(res.status, 403);
              await res.body?.cancel();
            }
            assert.throws(() => local.verifySignedRequest(url, "PUT"), /storage_signature_invalid/);
            assert.throws(
              () => local.verifySignedRequest(url, "GET", Date.now() + 301_000),
              /storage_signature_expired/,
            );
          });
        }

        await t.step("presigned PUT with fetch, then get", async () => {
          const url = await d.presignPut("upload/direct.txt", { expiresIn: 300 });
          const res = await fetch(url, { method: "PUT", body: "uploaded via presigned PUT" });
          assert.equal(res.status, 200, await res.text());
          assert.equal(await text(d, "upload/direct.txt"), "uploaded via presigned PUT");
          if (!s3) {
            const local = d as LocalDriver;
            assert.equal(local.verifySignedRequest(url, "PUT").op, "put");
            assert.throws(() => local.verifySignedRequest(url, "GET"), /storage_signature_invalid/);
          }
        });

        await t.step("multipart: 3 × 5 MiB parts + a tail, complete, byte-identical", async () => {
          const bytes = randomBytes(15 * MiB + 54_321);
          const key = "mp/video.bin";
          const uploadId = await d.createMultipart(key, { contentType: "video/mp4" });
          const slices = [0, 1, 2, 3].map((i) => bytes.slice(i * 5 * MiB, (i + 1) * 5 * MiB));
          const parts = [];
          // part 1 as a stream, part 2 through a presigned URL, parts 3 and 4 as bytes
          parts.push({
            partNumber: 1,
            ...(await d.uploadPart(key, uploadId, 1, chunked(slices[0]), slices[0].length)),
          });
          const url = await d.presignPart(key, uploadId, 2, { expiresIn: 300 });
          const res = await fetch(url, { method: "PUT", body: slices[1] });
          assert.equal(res.status, 200, await res.text());
          parts.push({ partNumber: 2, etag: res.headers.get("etag")! });
          assert.ok(parts[1].etag);
          parts.push({ partNumber: 3, ...(await d.uploadPart(key, uploadId, 3, slices[2])) });
          parts.push({ partNumber: 4, ...(await d.uploadPart(key, uploadId, 4, slices[3])) });
          assert.equal(slices[3].length, 54_321);
          const done = await d.completeMultipart(key, uploadId, parts);
          assert.equal(done.size, bytes.length);
          const got = await d.get(key);
          assert.equal(got.size, bytes.length);
          assert.equal(await sha256Of(got.body), sha256(bytes));
          if (!s3rver) {
            // the upload is over: its id is no longer usable (s3rver gap: see below)
            await rejectsWith(d.uploadPart(key, uploadId, 5, "x"), "storage_upload_not_found", 404);
          }
        });

        if (s3rver) {
          await t.step("s3rver lacks ListParts: listParts rejects", async () => {
            const uploadId = await d.createMultipart("mp/gap.bin");
            await d.uploadPart("mp/gap.bin", uploadId, 1, "part one");
            await assert.rejects(d.listParts("mp/gap.bin", uploadId), (err: AppError) => {
              assert.equal(err.code, "storage_error");
              assert.equal(err.details?.provider_code, "MethodNotAllowed");
              return true;
            });
          });
          await t.step(
            "s3rver lacks ListMultipartUploads: listMultipartUploads rejects",
            async () => {
              await assert.rejects(d.listMultipartUploads("mp/"), (err: AppError) => {
                assert.equal(err.code, "storage_error");
                assert.equal(err.details?.provider_code, "NotImplemented");
                return true;
              });
            },
          );
          await t.step("s3rver lacks AbortMultipartUpload: abortMultipart rejects", async () => {
            const uploadId = await d.createMultipart("mp/abort.bin");
            await assert.rejects(d.abortMultipart("mp/abort.bin", uploadId), (err: AppError) => {
              assert.equal(err.code, "storage_error");
              assert.equal(err.details?.provider_code, "MethodNotAllowed");
              return true;
            });
          });
          await t.step("s3rver ignores part ETags and the 5 MiB minimum on complete", async () => {
            const key = "mp/lax.bin";
            const uploadId = await d.createMultipart(key);
            await d.uploadPart(key, uploadId, 1, "small first part");
            await d.uploadPart(key, uploadId, 2, "!");
            const parts = [{ partNumber: 1, etag: '"wrong"' }, { partNumber: 2, etag: '"x"' }];
            // real S3 answers InvalidPart / EntityTooSmall (mapped to storage_multipart_invalid)
            await d.completeMultipart(key, uploadId, parts);
            assert.equal(await text(d, key), "small first part!");
          });
          await t.step("s3rver accepts parts for a completed upload", async () => {
            const key = "mp/after.bin";
            const uploadId = await d.createMultipart(key);
            const p1 = await d.uploadPart(key, uploadId, 1, "only part");
            await d.completeMultipart(key, uploadId, [{ partNumber: 1, ...p1 }]);
            // real S3 answers NoSuchUpload (mapped to 404 storage_upload_not_found)
            await d.uploadPart(key, uploadId, 2, "late part");
          });
        } else {
          if (s3) {
            await t.step("a part under 5 MiB before the last is refused on complete", async () => {
              const key = "mp/small.bin";
              const uploadId = await d.createMultipart(key);
              const p1 = await d.uploadPart(key, uploadId, 1, "small first part");
              const p2 = await d.uploadPart(key, uploadId, 2, "!");
              await rejectsWith(
                d.completeMultipart(key, uploadId, [
                  { partNumber: 1, ...p1 },
                  { partNumber: 2, ...p2 },
                ]),
                "storage_multipart_invalid",
                400,
              );
              await d.abortMultipart(key, uploadId);
            });
          }
          await t.step("multipart listParts, listMultipartUploads and abort", async () => {
            const key = "mp/resume.bin";
            const uploadId = await d.createMultipart(key);
            const p1 = await d.uploadPart(key, uploadId, 1, new Uint8Array(5 * MiB));
            await d.uploadPart(key, uploadId, 2, "tail");
            assert.deepEqual(await d.listParts(key, uploadId), [
              { partNumber: 1, etag: p1.etag, size: 5 * MiB },
              { partNumber: 2, etag: (await d.listParts(key, uploadId))[1].etag, size: 4 },
            ]);
            const uploads = await d.listMultipartUploads("mp/");
            assert.deepEqual(uploads.map((u) => [u.key, u.uploadId]), [[key, uploadId]]);
            await rejectsWith(
              d.completeMultipart(key, uploadId, [{ partNumber: 1, etag: '"wrong"' }]),
              "storage_multipart_invalid",
              400,
            );
            await d.abortMultipart(key, uploadId);
            await d.abortMultipart(key, uploadId); // idempotent
            assert.deepEqual(await d.listMultipartUploads(), []);
            await rejectsWith(d.listParts(key, uploadId), "storage_upload_not_found", 404);
            assert.equal(await d.head(key), null);
          });
        }

        await t.step(
          "path validation: traversal, backslash, NUL, empty segments → 400",
          async () => {
            const bad = ["../x", "a/../../b", "a\\b", "a\0b", "/abs", "a//b", "a/./b", "", "dir/"];
            for (const key of bad) {
              await rejectsWith(d.put(key, "x"), "storage_path_invalid", 400);
              await rejectsWith(d.get(key), "storage_path_invalid", 400);
              await rejectsWith(d.head(key), "storage_path_invalid", 400);
              await rejectsWith(d.delete(key), "storage_path_invalid", 400);
              await rejectsWith(d.copy("docs/readme.txt", key), "storage_path_invalid", 400);
              await rejectsWith(d.presignGet(key, { expiresIn: 60 }), "storage_path_invalid", 400);
              await rejectsWith(d.createMultipart(key), "storage_path_invalid", 400);
            }
            for (const prefix of ["../", "a/../", "a\\b/", "a//"]) {
              await rejectsWith(d.list(prefix), "storage_path_invalid", 400);
              await rejectsWith(d.deletePrefix(prefix), "storage_path_invalid", 400);
            }
          },
        );

        await t.step("capabilities", () => {
          assert.deepEqual(d.stat(), { presign: true, multipart: true, kind: h.kind });
        });
      } finally {
        await h.cleanup();
      }
    },
  });
}

contract("local driver", localHarness);
contract("S3 driver on s3rver", () => s3Harness("s3rver"));
contract("S3 driver on SeaweedFS", () => s3Harness("seaweedfs"));
