/**
 * A copy task survives a restart: the server is killed with SIGKILL in the middle of a copy,
 * started again on the same data, and the task finishes from where its record says it stopped.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, TEST_ADMIN } from "./helpers/server.ts";

const FILES = 800;

Deno.test("a copy task survives a server restart (kill -9 midway)", async () => {
  await using server = await startServer();
  const api = async (
    path: string,
    init: RequestInit & { json?: unknown } = {},
    token?: string,
  ) => {
    const headers = new Headers(init.headers);
    if (token) headers.set("authorization", `Bearer ${token}`);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    return await res.json();
  };
  const login = async () =>
    (await api("/api/admin/login", { method: "POST", json: TEST_ADMIN })).data.token as string;
  let token = await login();

  // The files are made on disk directly (as changes made outside Cubby would be).
  const src = join(server.dataDir, "storage", "big");
  await Deno.mkdir(src, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    await Deno.writeTextFile(join(src, `f${String(i).padStart(5, "0")}.txt`), `file ${i}`);
  }
  const cfg = (await api("/api/s3-configs", {}, token)).data[0];
  const m = await api("/api/mount/create", {
    method: "POST",
    json: { name: "m", mount_path: "/m", storage_type: "local", storage_config_id: cfg.id },
  }, token);
  assert.equal(m.code, 201, JSON.stringify(m));
  const started = await api("/api/fs/batch-copy", {
    method: "POST",
    json: { items: [{ sourcePath: "/m/big", targetPath: "/m/copy" }] },
  }, token);
  const id = started.data.task_id;

  let before = 0;
  for (let i = 0; i < 400 && before < 30; i++) {
    before = (await api(`/api/fs/tasks/${id}`, {}, token)).data.success_count;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.ok(before >= 30 && before < FILES, `killed midway (${before} of ${FILES} copied)`);
  await server.kill9();
  await server.restart();
  token = await login();

  let task = (await api(`/api/fs/tasks/${id}`, {}, token)).data;
  for (let i = 0; i < 600 && task.status !== "completed" && task.status !== "failed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    task = (await api(`/api/fs/tasks/${id}`, {}, token)).data;
  }
  assert.equal(task.status, "completed", JSON.stringify(task));
  assert.equal(task.failed_count, 0);
  assert.ok(task.success_count >= FILES - before, "the rest was copied after the restart");
  const copied: string[] = [];
  for await (const e of Deno.readDir(join(server.dataDir, "storage", "copy"))) {
    copied.push(e.name);
  }
  assert.equal(copied.length, FILES);
  const last = `f${String(FILES - 1).padStart(5, "0")}.txt`;
  assert.equal(
    await Deno.readTextFile(join(server.dataDir, "storage", "copy", last)),
    `file ${FILES - 1}`,
  );
});
