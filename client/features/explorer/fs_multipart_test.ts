// The mount flow of the multipart engine against a real app served over HTTP
// (tests/helpers/client_page.ts): keep-both naming, cancelling during init, resuming.
import assert from "node:assert/strict";
import { openClientPage, pollUntil } from "../../../tests/helpers/client_page.ts";
import { randomBytes } from "../../../tests/helpers/bytes.ts";
import { mountLocal, uploadToMount } from "../../../tests/helpers/fs_api.ts";
import { ApiError } from "../../api/client.ts";
import { blobSource, MultipartUpload } from "../../lib/upload/multipart.ts";
import { ProgressReporter } from "../../lib/upload/speed.ts";
import { fsMultipart, fsResumeKey, uploadInParts } from "./fs_multipart.ts";

const MiB = 1024 * 1024;

function fileOf(bytes: Uint8Array, name: string): File {
  return new File([bytes as BlobPart], name, { lastModified: 1700000000000 });
}

Deno.test("keep both: a large file goes up in parts under a numbered name", async () => {
  await using page = await openClientPage();
  await mountLocal(page.t, "/m");
  await uploadToMount(page.t, "/m", "big.bin");
  const bytes = randomBytes(11 * MiB);
  const file = fileOf(bytes, "big.bin");
  const signal = new AbortController().signal;
  const report = new ProgressReporter(file.size);
  const entry = await uploadInParts(file, "/m/big.bin", report, signal, "rename");
  assert.equal(entry.path, "/m/big (1).bin");
  assert.equal(page.xhr.byMethod.get("PUT"), 3);
  assert.equal(report.current.stage, "completed");
  const dl = await page.t.request(`/api/fs/download?path=${encodeURIComponent(entry.path)}`, {
    auth: page.admin,
  });
  assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), bytes);
});

Deno.test("cancelling during init lets the init end, then aborts the mount upload", async () => {
  await using page = await openClientPage();
  await mountLocal(page.t, "/m");
  const file = fileOf(randomBytes(6 * MiB), "early.bin");
  const flow = fsMultipart(file, "/m/early.bin", "fail");
  const ids: string[] = [];
  const ctrl = new AbortController();
  const run = new MultipartUpload({
    flow: { ...flow, init: () => flow.init().then((s) => (ids.push(s.id), s)) },
    source: blobSource(file),
    signal: ctrl.signal,
    resumeKey: fsResumeKey(file, "/m/early.bin"),
  }, new ProgressReporter(file.size)).run();
  ctrl.abort();
  await assert.rejects(run, (e) => e instanceof ApiError && e.code === "upload_cancelled");
  assert.equal(ids.length, 1, "the init ran to its end");
  const open = async () => {
    const res = await page.t.request("/api/fs/multipart/list-uploads", {
      method: "POST",
      auth: page.admin,
      json: { path: "/m" },
    });
    return (await res.json()).data.uploads.length;
  };
  // The abort is sent in the background: wait for the server to have carried it out.
  assert.equal(await pollUntil(open, 0), 0);
  assert.equal(page.xhr.byMethod.get("PUT"), undefined, "no part was sent");
});

Deno.test("a mount upload whose part failed resumes with only that part", async () => {
  await using page = await openClientPage();
  await mountLocal(page.t, "/m");
  const bytes = randomBytes(12 * MiB);
  const file = fileOf(bytes, "resume.bin");
  const source = blobSource(file);
  let failed = false;
  const err = await new MultipartUpload({
    flow: fsMultipart(file, "/m/resume.bin", "fail"),
    source: {
      size: file.size,
      read: (start, end) => {
        if (start > 0 && !failed) {
          failed = true;
          return Promise.reject(new Error("read failed"));
        }
        return source.read(start, end);
      },
    },
    resumeKey: fsResumeKey(file, "/m/resume.bin"),
  }, new ProgressReporter(file.size)).run().catch((e) => e);
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, "parts_failed");
  assert.equal(err.params.resumable, true);
  const sentFirst = page.xhr.byMethod.get("PUT")!;
  assert.equal(sentFirst, 2);

  const report = new ProgressReporter(file.size);
  const entry = await uploadInParts(file, "/m/resume.bin", report, new AbortController().signal);
  assert.equal(page.xhr.byMethod.get("PUT"), 3, "only the failed part was sent again");
  assert.equal(report.current.parts?.resumed, 2);
  assert.equal(entry.size, bytes.length);
});
