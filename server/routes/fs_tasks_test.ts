import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";
import { readMountText, runTask, uploadTree, waitForTask } from "../../tests/helpers/fs_api.ts";

Deno.test("copy tasks: a file and a folder within a mount, skip existing, progress and counts", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.createMount("/m");
  await uploadTree(t, { "/m/src/a.txt": "A", "/m/src/sub/b.txt": "B", "/m/one.txt": "1" });
  const done = await runTask(t, "/api/fs/batch-copy", {
    items: [
      { sourcePath: "/m/src", targetPath: "/m/dst" },
      { sourcePath: "/m/one.txt", targetPath: "/m/dst/one.txt" },
    ],
  }, admin);
  assert.equal(done.status, "completed", JSON.stringify(done));
  assert.deepEqual([done.total, done.success_count, done.failed_count, done.progress], [
    3,
    3,
    0,
    100,
  ]);
  assert.equal(await readMountText(t, "/m/dst/a.txt"), "A");
  assert.equal(await readMountText(t, "/m/dst/sub/b.txt"), "B");
  assert.equal(await readMountText(t, "/m/dst/one.txt"), "1");

  const skipped = await runTask(t, "/api/fs/batch-copy", {
    items: [{ sourcePath: "/m/src", targetPath: "/m/dst" }],
    skipExisting: true,
  }, admin);
  assert.deepEqual([skipped.success_count, skipped.skipped_count], [0, 2]);

  const list = (await (await t.request("/api/fs/tasks", { auth: admin })).json()).data;
  assert.equal(list.length, 2);
  const cleared = await t.request("/api/fs/tasks/clear", { method: "POST", auth: admin });
  assert.equal((await cleared.json()).data.cleared, 2);
});

Deno.test("copy tasks: into itself is refused; missing sources fail; access needs mount_copy", async () => {
  await using t = await createTestApp();
  const admin = await t.adminAuth();
  await t.createMount("/m");
  await uploadTree(t, { "/m/f/x.txt": "x" });
  const onto = await t.request("/api/fs/batch-copy", {
    method: "POST",
    auth: admin,
    json: { items: [{ sourcePath: "/m/f", targetPath: "/m/f" }] },
  });
  assert.equal(onto.status, 400);
  assert.equal((await onto.json()).error, "copy_into_itself");
  // Into its own subfolder (after the client's warning): the copy skips its own output.
  const intoDone = await runTask(t, "/api/fs/batch-copy", {
    items: [{ sourcePath: "/m/f", targetPath: "/m/f/inner" }],
  }, admin);
  assert.deepEqual([intoDone.status, intoDone.success_count], ["completed", 1]);
  assert.equal(await readMountText(t, "/m/f/inner/x.txt"), "x");
  assert.equal(await readMountText(t, "/m/f/inner/inner/x.txt"), null, "no recursion");

  const failed = await runTask(t, "/api/fs/batch-copy", {
    items: [{ sourcePath: "/m/nope", targetPath: "/m/y" }],
  }, admin);
  assert.equal(failed.status, "failed");
  assert.deepEqual(failed.errors, [{ path: "/m/nope", error: "file_not_found" }]);
  const retried = await t.request(`/api/fs/tasks/${failed.id}/retry`, {
    method: "POST",
    auth: admin,
  });
  assert.equal((await retried.json()).data.status, "pending");

  const viewer = (await t.createKey({ mount_view: true })).auth;
  const copier =
    (await t.createKey({ mount_view: true, mount_copy: true }, { basic_path: "/m/f" })).auth;
  const body = { items: [{ sourcePath: "/m/f/x.txt", targetPath: "/m/f/y.txt" }] };
  assert.equal(await t.statusOf("POST", "/api/fs/batch-copy", viewer, body), 403);
  assert.equal(
    await t.statusOf("POST", "/api/fs/batch-copy", copier, {
      items: [{ sourcePath: "/m/f/x.txt", targetPath: "/m/escaped.txt" }],
    }),
    403,
    "the target must be inside the key's base path too",
  );
  const allowed = await t.request("/api/fs/batch-copy", {
    method: "POST",
    auth: copier,
    json: body,
  });
  assert.equal(
    (await waitForTask(t, (await allowed.json()).data.task_id, copier)).status,
    "completed",
  );
  const others = await t.request(`/api/fs/tasks/${failed.id}`, { auth: copier });
  assert.equal(others.status, 403, "a key sees only its own tasks");
  await others.body?.cancel();
});

Deno.test("a cross-storage copy (local → s3rver) runs as a task and copies the bytes", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const admin = await t.adminAuth();
  const cfg = await t.createS3rverConfig(s3);
  await t.createMount("/local");
  await t.createMount("/cloud", { storage_type: "s3", storage_config_id: cfg.id });
  const big = "x".repeat(300_000) + "end";
  await uploadTree(t, { "/local/dir/big.txt": big, "/local/dir/small.txt": "small" });
  const done = await runTask(t, "/api/fs/batch-copy", {
    items: [{ sourcePath: "/local/dir", targetPath: "/cloud/copied" }],
  }, admin);
  assert.equal(done.status, "completed", JSON.stringify(done));
  assert.equal(await readMountText(t, "/cloud/copied/big.txt"), big);
  assert.equal(await readMountText(t, "/cloud/copied/small.txt"), "small");
});

Deno.test("delete and download tasks run in the background through the filesystem service", async () => {
  await using origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/missing"
        ? new Response("no", { status: 404 })
        : new Response("fetched bytes", {
          headers: { "content-disposition": 'attachment; filename="fetched.txt"' },
        }),
  );
  await using t = await createTestApp({ CUBBY_ALLOW_LOOPBACK_FETCH: "1" });
  const admin = await t.adminAuth();
  await t.createMount("/m");
  await uploadTree(t, { "/m/old/a.txt": "A", "/m/old/deep/b.txt": "B", "/m/c.txt": "C" });
  const deleted = await runTask(t, "/api/fs/tasks/delete", {
    paths: ["/m/old", "/m/c.txt", "/m/nope.txt"],
  }, admin);
  assert.deepEqual(
    [deleted.type, deleted.status, deleted.success_count, deleted.failed_count],
    ["delete", "completed", 2, 1],
  );
  assert.deepEqual(deleted.errors, [{ path: "/m/nope.txt", error: "file_not_found" }]);
  assert.equal(await readMountText(t, "/m/old/deep/b.txt"), null);
  assert.equal(await readMountText(t, "/m/c.txt"), null);

  const base = `http://127.0.0.1:${origin.addr.port}`;
  const downloaded = await runTask(t, "/api/fs/tasks/download", {
    urls: [`${base}/file`, `${base}/missing`],
    path: "/m/inbox",
  }, admin);
  assert.deepEqual([downloaded.type, downloaded.success_count, downloaded.failed_count], [
    "download",
    1,
    1,
  ]);
  assert.equal(await readMountText(t, "/m/inbox/fetched.txt"), "fetched bytes");
  const found = await (await t.request("/api/fs/search?q=fetched", { auth: admin })).json();
  assert.deepEqual(found.data.items.map((i: { path: string }) => i.path), [
    "/m/inbox/fetched.txt",
  ]);

  assert.equal(
    await t.statusOf("POST", "/api/fs/tasks/download", admin, {
      urls: ["file:///etc/passwd"],
      path: "/m",
    }),
    400,
  );
  const viewer = (await t.createKey({ mount_view: true })).auth;
  assert.equal(
    await t.statusOf("POST", "/api/fs/tasks/delete", viewer, { paths: ["/m/inbox"] }),
    403,
  );
});
