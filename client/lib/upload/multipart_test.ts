import assert from "node:assert/strict";
import { PartBook, partRange, partsToSend } from "./multipart_plan.ts";
import {
  findResume,
  forgetResume,
  hasResume,
  loadResumeRecords,
  resumeKeyOf,
  saveResume,
} from "./resume_store.ts";
import { ProgressReporter } from "./speed.ts";
import type { UploadProgress } from "./types.ts";

const MiB = 1024 * 1024;

Deno.test("parts cover the file: 5 MiB each, the last one shorter", () => {
  const size = 12 * MiB + 5;
  assert.deepEqual(partRange(1, 5 * MiB, size), [0, 5 * MiB]);
  assert.deepEqual(partRange(3, 5 * MiB, size), [10 * MiB, size]);
});

Deno.test("a resume keeps stored parts of the right size and sends the rest", () => {
  const size = 12 * MiB;
  const listed = [
    { partNumber: 1, etag: '"a"', size: 5 * MiB },
    { partNumber: 2, etag: '"b"', size: 1024 }, // cut off by the reload: sent again
    { partNumber: 3, etag: '"c"', size: 2 * MiB },
    { partNumber: 9, etag: '"x"', size: 5 * MiB }, // not a part of this file
  ];
  const { done, missing } = partsToSend(listed, 5 * MiB, 3, size);
  assert.deepEqual([...done], [[1, '"a"'], [3, '"c"']]);
  assert.deepEqual(missing, [2]);
  assert.deepEqual(partsToSend([], 5 * MiB, 3, size).missing, [1, 2, 3]);
});

Deno.test("the part book counts bytes in flight and stored parts for the bar", () => {
  const book = new PartBook(12 * MiB);
  book.setup(3, 5 * MiB, new Map([[1, '"a"']]));
  assert.deepEqual(book.todo(), [2, 3]);
  assert.equal(book.sentBytes(), 5 * MiB, "a resumed part counts as sent");
  book.mark(2, "uploading");
  book.progress(2, 1000);
  assert.equal(book.sentBytes(), 5 * MiB + 1000);
  book.mark(2, "failed");
  assert.equal(book.sentBytes(), 5 * MiB, "a failed attempt gives its bytes back");
  book.stored(3, '"c"');
  book.stored(2, '"b"');
  assert.equal(book.sentBytes(), 12 * MiB);
  assert.deepEqual(book.completed().map((p) => p.partNumber), [1, 2, 3]);
  const snap = book.snapshot("uploading", 1);
  assert.deepEqual([snap.total, snap.completed, snap.resumed], [3, 3, 1]);
  assert.deepEqual(snap.chunks, ["completed", "completed", "completed"]);
});

Deno.test("resume records match name, size, lastModified and config, and expire", () => {
  localStorage.removeItem("cubby.multipart.resume");
  const file = { name: "big.bin", size: 12 * MiB, lastModified: 1700000000000 };
  assert.equal(resumeKeyOf({ size: 1 }, "x", "c"), null, "a blob without lastModified");
  const key = resumeKeyOf(file, "big.bin", "cfg1")!;
  saveResume({ ...key, fileId: "f1", partSize: 5 * MiB, totalParts: 3, savedAt: Date.now() });
  assert.equal(findResume(key)?.fileId, "f1");
  assert.equal(findResume({ ...key, configId: "cfg2" }), null, "another config starts afresh");
  assert.equal(findResume({ ...key, lastModified: 1 }), null, "another file of the same name");
  assert.equal(hasResume(file), true);
  // Saving the same file and config again replaces the record.
  saveResume({ ...key, fileId: "f2", partSize: 5 * MiB, totalParts: 3, savedAt: Date.now() });
  assert.deepEqual(loadResumeRecords().map((r) => r.fileId), ["f2"]);
  assert.deepEqual(loadResumeRecords(Date.now() + 24 * 3600_000), [], "older than a day");
  forgetResume("f2");
  assert.equal(hasResume(file), false);
  assert.equal(localStorage.getItem("cubby.multipart.resume"), null);
});

Deno.test("a URL upload's progress runs 0–49 % downloading and 50–99 % uploading", () => {
  const seen: UploadProgress[] = [];
  const r = new ProgressReporter(1000, (p) => seen.push(p));
  r.phase(0, 49, 1000);
  r.stage("proxyDownloading");
  r.bytes(500);
  assert.equal(r.current.percent, 24);
  r.bytes(1000);
  assert.equal(r.current.percent, 49);
  r.phase(50, 99, 1000);
  r.stage("uploading");
  assert.equal(r.current.percent, 50);
  r.bytes(1000);
  assert.equal(r.current.percent, 99);
  r.stage("completing");
  assert.equal(r.current.percent, 99);
  r.stage("completed");
  assert.equal(r.current.percent, 100);
  // A download of unknown length stays at the start of its span.
  r.phase(0, 49, 0);
  r.bytes(123);
  assert.equal(r.current.percent, 0);
  assert.equal(r.current.loaded, 123);
  assert.ok(seen.length >= 6);
});
