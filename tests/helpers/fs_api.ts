/**
 * Test helpers for mounts and their files, driven through a test app's HTTP API like a client:
 * the same routes, the same real KV and storage, no shortcut into services.
 */
import assert from "node:assert/strict";
import { ADMIN, type TestApp } from "./app.ts";

/** "Basic <base64>" for a username and password (UTF-8), as a WebDAV client sends it. */
export const basicAuth = (user: string, pass: string) =>
  "Basic " + btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${pass}`)));

/** The admin's Basic credentials, for WebDAV requests. */
export const ADMIN_BASIC = basicAuth(ADMIN.username, ADMIN.password);

/** Creates a local mount named after its path without the leading slash; returns its view. */
export function mountLocal(t: TestApp, path: string, extra: Record<string, unknown> = {}) {
  return t.createMount(path, { name: path.slice(1), ...extra });
}

/** POSTs one file to /api/fs/upload into folder `dir` as `auth` (the admin when omitted). */
export async function postMountFile(
  t: TestApp,
  dir: string,
  name: string,
  body: string | Uint8Array,
  auth?: string,
): Promise<Response> {
  const fd = new FormData();
  fd.set("path", dir);
  fd.set("file", new Blob([body as BlobPart]), name);
  return await t.request("/api/fs/upload", {
    method: "POST",
    auth: auth ?? await t.adminAuth(),
    body: fd,
  });
}

/** Uploads one file into folder `dir` of a mount and asserts 201 Created. */
export async function uploadToMount(
  t: TestApp,
  dir: string,
  name: string,
  body: string | Uint8Array = "x",
  auth?: string,
): Promise<void> {
  const res = await postMountFile(t, dir, name, body, auth);
  assert.equal(res.status, 201, await res.clone().text());
  await res.body?.cancel();
}

/** Uploads each `path → text` as the admin (folders are made on the way). */
export async function uploadTree(t: TestApp, files: Record<string, string>): Promise<void> {
  for (const [path, body] of Object.entries(files)) {
    const at = path.lastIndexOf("/");
    await uploadToMount(t, path.slice(0, at), path.slice(at + 1), body);
  }
}

/** Polls GET /api/fs/tasks/:id until the task completes, fails or is cancelled; returns it. */
export async function waitForTask(t: TestApp, id: string, auth?: string) {
  for (let i = 0; i < 200; i++) {
    const res = await t.request(`/api/fs/tasks/${id}`, { auth: auth ?? await t.adminAuth() });
    const task = (await res.json()).data;
    if (["completed", "failed", "cancelled"].includes(task.status)) return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("task did not finish");
}

/** POSTs `json` to a task route as `auth` (the admin when omitted), asserts 202 and awaits the task. */
export async function runTask(t: TestApp, path: string, json: unknown, auth?: string) {
  const res = await t.request(path, { method: "POST", auth: auth ?? await t.adminAuth(), json });
  const body = await res.json();
  assert.equal(res.status, 202, JSON.stringify(body));
  return await waitForTask(t, body.data.task_id, auth);
}

/** Downloads a mount file as the admin: its text, or null when the answer is not 200. */
export async function readMountText(t: TestApp, path: string): Promise<string | null> {
  const res = await t.request(`/api/fs/download?path=${encodeURIComponent(path)}`, {
    auth: await t.adminAuth(),
  });
  return res.status === 200 ? await res.text() : (await res.body?.cancel(), null);
}

/**
 * Waits until no search rebuild of the mount runs (creating a mount starts one in the background,
 * which reads and writes KV meanwhile) and returns the rebuild's status.
 */
export async function settledRebuild(t: TestApp, mountId: string): Promise<{ state: string }> {
  const auth = await t.adminAuth();
  for (let i = 0; i < 400; i++) {
    const res = await t.request(`/api/fs/search/rebuild?mount_id=${mountId}`, { auth });
    const body = await res.json();
    if (body.data.state !== "running") return body.data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the rebuild did not finish");
}
