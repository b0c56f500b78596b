import assert from "node:assert/strict";
import { type SettledEvent, UploadQueue } from "./upload_queue.ts";
import { ApiError } from "../../api/client.ts";
import { estimateSecondsLeft, SpeedMeter, type UploadRequest } from "../../lib/uploader.ts";
import type { FileView } from "../../../shared/schemas/files.ts";

/** An uploader whose uploads finish only when the test says so. */
function controllableUploader() {
  const pending = new Map<
    string,
    { resolve: (v: FileView) => void; reject: (e: unknown) => void }
  >();
  const started: string[] = [];
  const upload = (req: UploadRequest) =>
    new Promise<FileView>((resolve, reject) => {
      const name = req.filename!;
      started.push(name);
      pending.set(name, { resolve, reject });
      req.signal?.addEventListener(
        "abort",
        () => reject(new ApiError("upload_cancelled", 0, null)),
      );
      req.onProgress?.({
        stage: "uploading",
        loaded: 1,
        total: 2,
        percent: 50,
        speed: 10,
        eta: 1,
      });
    });
  const finish = (name: string) =>
    pending.get(name)!.resolve({ slug: name, url: `http://x/file/${name}` } as FileView);
  const fail = (name: string) =>
    pending.get(name)!.reject(new ApiError("upload_failed", 500, null));
  return { upload, started, finish, fail, pending: (name: string) => pending.get(name)! };
}

const file = (name: string, size = 2) => new File([new Uint8Array(size)], name);
const tick = () => new Promise((r) => setTimeout(r, 0));
const job = () => ({ method: "form" as const, options: {} });

Deno.test("the queue runs at most two uploads at a time, in order", async () => {
  const u = controllableUploader();
  const events: SettledEvent[] = [];
  const q = new UploadQueue(u.upload, 2, (e) => events.push(e));
  const ids = q.add([file("a"), file("b"), file("c")]);
  assert.deepEqual(q.getSnapshot().map((i) => i.status), ["ready", "ready", "ready"]);
  q.start(ids, job);
  await tick();
  assert.deepEqual(u.started, ["a", "b"]);
  assert.deepEqual(q.getSnapshot().map((i) => i.status), ["uploading", "uploading", "waiting"]);
  assert.equal(q.getSnapshot()[0].progress?.percent, 50);
  u.finish("a");
  await tick();
  assert.deepEqual(u.started, ["a", "b", "c"]);
  assert.equal(q.getSnapshot()[0].status, "done");
  assert.equal(q.getSnapshot()[0].result?.slug, "a");
  assert.equal(events[0].kind, "done");
});

Deno.test("cancel, failure and retry", async () => {
  const u = controllableUploader();
  const q = new UploadQueue(u.upload, 1);
  const [a, b] = q.add([file("a"), file("b")]);
  q.start([a, b], job);
  await tick();
  q.cancel(b); // still waiting: cancelled without starting
  assert.equal(q.getSnapshot()[1].status, "cancelled");
  u.fail("a");
  await tick();
  assert.equal(q.getSnapshot()[0].status, "failed");
  assert.ok(q.getSnapshot()[0].error instanceof ApiError);
  assert.deepEqual(u.started, ["a"]);
  q.start([a], job); // retry
  await tick();
  assert.deepEqual(u.started, ["a", "a"]);
  q.cancel(a); // running: aborted
  await tick();
  assert.equal(q.getSnapshot()[0].status, "cancelled");
  q.clearFinished();
  assert.equal(q.getSnapshot().length, 0);
});

Deno.test("rejected files are added but never started", async () => {
  const u = controllableUploader();
  const q = new UploadQueue(u.upload);
  const ids = q.add([file("big", 10), file("ok")], (f) => f.size > 5 ? "too_large" : null);
  q.start(ids, job);
  await tick();
  assert.deepEqual(u.started, ["ok"]);
  assert.equal(q.getSnapshot()[0].status, "rejected");
  assert.equal(q.getSnapshot()[0].error, "too_large");
});

Deno.test("the speed meter averages over its window and estimates the time left", () => {
  const m = new SpeedMeter(1000);
  assert.equal(m.bytesPerSecond(), 0);
  m.add(0, 0);
  m.add(500, 500);
  m.add(1000, 1000);
  assert.equal(m.bytesPerSecond(), 1000);
  m.add(4000, 2000); // a burst: the window drops samples older than 1 s
  assert.equal(m.bytesPerSecond(), 3000);
  assert.equal(estimateSecondsLeft(3000, 1000), 3);
  assert.equal(estimateSecondsLeft(10, 0), null);
  assert.equal(estimateSecondsLeft(0, 0), 0);
});

Deno.test("URL items, pausing, and discarding a resumable failure on remove", async () => {
  const u = controllableUploader();
  const discarded: unknown[] = [];
  const q = new UploadQueue(u.upload, 2, undefined, (e) => discarded.push(e));
  const info = { url: "https://x.test/a.zip", filename: "a.zip", size: null, content_type: "x" };
  const id = q.addUrl(info);
  const item = q.getSnapshot()[0];
  assert.equal(item.url, info);
  assert.equal(item.file, null);
  assert.equal(item.size, null);
  const [f] = q.add([file("f")], undefined, undefined, () => true);
  assert.equal(q.getSnapshot()[1].resumable, true);
  q.start([id, f], job);
  await tick();
  assert.deepEqual(u.started, ["a.zip", "f"]);
  q.pauseAll();
  await tick();
  assert.deepEqual(q.getSnapshot().map((i) => i.status), ["cancelled", "cancelled"]);
  q.start([f], job);
  await tick();
  const resumable = new ApiError("parts_failed", 0, null, null, { fileId: "F", resumable: true });
  u.pending("f").reject(resumable);
  await tick();
  assert.equal(q.getSnapshot()[1].status, "failed");
  q.remove(f);
  assert.deepEqual(discarded, [resumable]);
});
