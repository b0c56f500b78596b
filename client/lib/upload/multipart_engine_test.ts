// The multipart engine over the share flow, against a real app served over HTTP
// (tests/helpers/client_page.ts): pacing, cancelling during init, and resuming after a failed part.
import assert from "node:assert/strict";
import { openClientPage, pollUntil } from "../../../tests/helpers/client_page.ts";
import { randomBytes } from "../../../tests/helpers/bytes.ts";
import { ApiError } from "../../api/client.ts";
import { blobSource, type MultipartJob, MultipartUpload } from "./multipart.ts";
import type { ResumeKey } from "./resume_store.ts";
import { S3_MULTIPART, shareMultipart, uploadViaMultipart } from "./share_multipart.ts";
import { ProgressReporter } from "./speed.ts";
import type { ByteSource, FileView, UploadProgress } from "./types.ts";
import type { SimpleUpload } from "./form.ts";

const MiB = 1024 * 1024;

function upload(bytes: Uint8Array, name: string): SimpleUpload {
  return {
    blob: new Blob([bytes as BlobPart]),
    filename: name,
    mimetype: "application/octet-stream",
    options: {},
  };
}

/** The bytes of `bytes`, except that reading the range from `failAt` fails once. */
function failingOnce(bytes: Uint8Array, failAt: number): ByteSource {
  let failed = false;
  return {
    size: bytes.length,
    read(start, end) {
      if (start === failAt && !failed) {
        failed = true;
        return Promise.reject(new Error("read failed"));
      }
      return Promise.resolve(new Blob([bytes.subarray(start, end) as BlobPart]));
    },
  };
}

Deno.test("the engine sends parts at most 3 at a time and completes a share of the same bytes", async () => {
  await using page = await openClientPage();
  const bytes = randomBytes(20 * MiB + 5);
  const seen: UploadProgress[] = [];
  const report = new ProgressReporter(bytes.length, (p) => seen.push(p));
  const view = await uploadViaMultipart(upload(bytes, "big.bin"), report, {
    routes: S3_MULTIPART,
    resumeKey: null,
  });
  assert.equal(page.xhr.byMethod.get("PUT"), 5, "five parts of 5 MiB (the last one shorter)");
  assert.equal(page.xhr.maxInFlight, 3);
  assert.equal(view.size, bytes.length);
  const dl = await page.t.request(`/api/file-download/${view.slug}`);
  assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes);
  const last = seen.at(-1)!;
  assert.deepEqual([last.stage, last.percent, last.parts?.completed], ["completed", 100, 5]);
});

Deno.test("cancelling during init lets the init end, then aborts the upload by its id", async () => {
  await using page = await openClientPage();
  const u = upload(randomBytes(6 * MiB), "early.bin");
  const flow = shareMultipart(u, S3_MULTIPART);
  const ids: string[] = [];
  const ctrl = new AbortController();
  const job: MultipartJob<FileView> = {
    flow: { ...flow, init: () => flow.init().then((s) => (ids.push(s.id), s)) },
    source: blobSource(u.blob),
    signal: ctrl.signal,
    resumeKey: null,
  };
  const run = new MultipartUpload(job, new ProgressReporter(u.blob.size)).run();
  ctrl.abort();
  await assert.rejects(run, (e) => e instanceof ApiError && e.code === "upload_cancelled");
  assert.equal(ids.length, 1, "the init ran to its end");
  assert.equal(page.xhr.byMethod.get("PUT"), undefined, "no part was sent");
  const listed = () =>
    page.t.statusOf("POST", "/api/s3/multipart/list-parts", page.admin, { file_id: ids[0] });
  // The abort is sent in the background: wait for the server to have carried it out.
  assert.equal(await pollUntil(listed, 404), 404);
});

Deno.test("a part that fails keeps the upload resumable; the next run sends only that part", async () => {
  await using page = await openClientPage();
  const bytes = randomBytes(12 * MiB);
  const u = upload(bytes, "resume.bin");
  const resumeKey: ResumeKey = {
    name: "resume.bin",
    size: bytes.length,
    lastModified: 1,
    configId: "",
  };
  const job = (source: ByteSource): MultipartJob<FileView> => ({
    flow: shareMultipart(u, S3_MULTIPART),
    source,
    resumeKey,
  });
  const first = new MultipartUpload(job(failingOnce(bytes, 5 * MiB)), new ProgressReporter(0));
  const err = await first.run().catch((e) => e);
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, "parts_failed");
  assert.deepEqual(err.data, { failed: [2] });
  assert.equal(err.params.resumable, true);
  assert.equal(page.xhr.byMethod.get("PUT"), 2);

  const seen: UploadProgress[] = [];
  const again = new MultipartUpload(
    job(failingOnce(bytes, -1)),
    new ProgressReporter(0, (p) => seen.push(p)),
  );
  const view = await again.run();
  assert.equal(page.xhr.byMethod.get("PUT"), 3, "only part 2 was sent again");
  assert.equal(seen.at(-1)?.parts?.resumed, 2);
  assert.equal(view.id, err.params.fileId);
  const dl = await page.t.request(`/api/file-download/${view.slug}`);
  assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes);
});
