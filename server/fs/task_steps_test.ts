/** Delete and download steps of tasks, on a real app's mounts and a local HTTP server. */
import assert from "node:assert/strict";
import { deleteItem, downloadItem, type TaskStepDeps } from "./task_steps.ts";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { adminAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";

const ADMIN = adminAuth();

function depsOf(t: TestApp, over: Partial<TaskStepDeps> = {}): TaskStepDeps {
  return {
    fs: t.services.fs,
    allowLoopbackFetch: true,
    maxUploadBytes: () => Promise.resolve(1024),
    ...over,
  };
}

/** A server on 127.0.0.1 answering each path with what `routes` gives. */
function serve(routes: Record<string, () => Response>) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const route = routes[new URL(req.url).pathname];
    return route ? route() : new Response("no", { status: 404 });
  });
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return `${err.status} ${err.code}`;
}

async function read(t: TestApp, path: string): Promise<string | null> {
  if (!await t.services.fs.stat(path, ADMIN)) return null;
  const { object } = await t.services.fs.download(path, ADMIN);
  return await new Response(object.body).text();
}

Deno.test("download step: saves under the server's file name, streamed", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await using server = serve({
    "/named": () =>
      new Response("named body", {
        headers: { "content-disposition": "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt" },
      }),
    "/files/plain.bin": () => new Response("plain"),
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  await downloadItem(depsOf(t), { sourcePath: `${base}/named`, targetPath: "/m/in" }, ADMIN);
  await downloadItem(
    depsOf(t),
    { sourcePath: `${base}/files/plain.bin`, targetPath: "/m/in" },
    ADMIN,
  );
  assert.equal(await read(t, "/m/in/résumé.txt"), "named body");
  assert.equal(await read(t, "/m/in/plain.bin"), "plain");
});

Deno.test("download step: over the upload limit is 413 whether announced or streamed", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await using server = serve({
    "/announced": () => new Response("x".repeat(2000)),
    "/streamed": () =>
      new Response(
        new ReadableStream({
          start(c) {
            for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode("y".repeat(500)));
            c.close();
          },
        }),
      ),
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  for (const name of ["announced", "streamed"]) {
    assert.equal(
      await codeOf(
        downloadItem(depsOf(t), { sourcePath: `${base}/${name}`, targetPath: "/m" }, ADMIN),
      ),
      "413 file_too_large",
      name,
    );
    assert.equal(await t.services.fs.stat(`/m/${name}`, ADMIN), null, "nothing half-written");
  }
});

Deno.test("download step: loopback addresses are refused unless allowed", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await using server = serve({ "/x": () => new Response("x") });
  const deps = depsOf(t, { allowLoopbackFetch: false });
  const item = { sourcePath: `http://127.0.0.1:${server.addr.port}/x`, targetPath: "/m" };
  assert.equal(await codeOf(downloadItem(deps, item, ADMIN)), "400 url_forbidden");
  assert.equal(await t.services.fs.stat("/m/x", ADMIN), null);
});

Deno.test("delete step: removes a file or folder; a missing one throws its reason", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  await t.services.fs.upload("/m/d", "f", new Blob(["x"]).stream(), ADMIN);
  await deleteItem(depsOf(t), { sourcePath: "/m/d", targetPath: "" }, ADMIN);
  assert.equal(await t.services.fs.stat("/m/d/f", ADMIN), null);
  assert.equal(
    await codeOf(deleteItem(depsOf(t), { sourcePath: "/m/d", targetPath: "" }, ADMIN)),
    "400 file_not_found",
  );
});
