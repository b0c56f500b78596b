/**
 * Test data for the mount specs, made through the API: a local storage config with a root of
 * its own (so no spec sees another's files), mounts, files and folders, and API keys.
 */
import type { APIRequestContext } from "@playwright/test";
import { Buffer } from "node:buffer";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "../fixtures.ts";
import type { MountView } from "../../../shared/schemas/mounts.ts";
import type { StorageConfigView } from "../../../shared/schemas/storage_configs.ts";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function data<T>(res: Awaited<ReturnType<APIRequestContext["get"]>>, status: number) {
  const body = await res.json() as { data: unknown };
  expect(res.status(), JSON.stringify(body)).toBe(status);
  return body.data as T;
}

/** A mount-path segment no other test uses (letters, digits, hyphens only). */
export function uniqueSegment(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${crypto.randomUUID().slice(0, 6)}`;
}

const roots: string[] = [];

/** Removes the temporary roots this worker made (call from `test.afterAll`). */
export async function removeTemporaryRoots(): Promise<void> {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
}

/** A local storage config rooted in a fresh temporary directory (see removeTemporaryRoots). */
export async function createLocalConfig(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<StorageConfigView> {
  const root = await mkdtemp(join(tmpdir(), "cubby-e2e-mount-"));
  roots.push(root);
  const res = await request.post("/api/s3-configs", {
    headers: bearer(token),
    data: { name, provider_type: "local", root_dir: root },
  });
  return await data<StorageConfigView>(res, 201);
}

/** A local mount at `/<segment>` on `configId`. */
export async function createMount(
  request: APIRequestContext,
  token: string,
  segment: string,
  configId: string,
): Promise<MountView> {
  const res = await request.post("/api/mount/create", {
    headers: bearer(token),
    data: {
      name: segment,
      mount_path: `/${segment}`,
      storage_type: "local",
      storage_config_id: configId,
      cache_ttl: 0,
    },
  });
  return await data<MountView>(res, 201);
}

/** A fresh mount `/<prefix>-…` on a local config of its own (same name); returns its path. */
export async function freshMount(
  request: APIRequestContext,
  token: string,
  prefix: string,
): Promise<string> {
  const segment = uniqueSegment(prefix);
  const config = await createLocalConfig(request, token, segment);
  await createMount(request, token, segment, config.id);
  return `/${segment}`;
}

/** Writes a file into folder `dir` of the mounts. */
export async function putFile(
  request: APIRequestContext,
  token: string,
  dir: string,
  name: string,
  body: string | Uint8Array,
  mimeType = "application/octet-stream",
): Promise<void> {
  const res = await request.post("/api/fs/upload", {
    headers: bearer(token),
    multipart: {
      path: dir,
      file: { name, mimeType, buffer: Buffer.from(body) },
    },
  });
  await data(res, 201);
}

/** Lists the names in a folder. */
export async function listNames(
  request: APIRequestContext,
  token: string,
  path: string,
): Promise<string[]> {
  const res = await request.get(`/api/fs/list?path=${encodeURIComponent(path)}&refresh=true`, {
    headers: bearer(token),
  });
  const page = await data<{ items: { name: string }[] }>(res, 200);
  return page.items.map((i) => i.name).sort();
}

/** How many multipart uploads under `path` are started and not yet completed or aborted. */
export async function openUploads(
  request: APIRequestContext,
  token: string,
  path: string,
): Promise<number> {
  const res = await request.post("/api/fs/multipart/list-uploads", {
    headers: bearer(token),
    data: { path },
  });
  return (await data<{ uploads: unknown[] }>(res, 200)).uploads.length;
}

/** Creates an API key with the given permission object and base path; returns the key. */
export async function createApiKey(
  request: APIRequestContext,
  token: string,
  name: string,
  permissions: Record<string, boolean>,
  basicPath: string,
): Promise<string> {
  const res = await request.post("/api/admin/api-keys", {
    headers: bearer(token),
    data: { name, permissions, basic_path: basicPath },
  });
  return (await data<{ key: string }>(res, 201)).key;
}

/** True when the server has a route (not the API's 404 route_not_found). */
export async function hasRoute(
  request: APIRequestContext,
  token: string,
  path: string,
): Promise<boolean> {
  const res = await request.get(path, { headers: bearer(token) });
  const body = await res.json().catch(() => null);
  return !(res.status() === 404 && body?.error === "route_not_found");
}

/** A tiny valid PNG (1×1, one colour) with `pad` extra bytes in a comment-like chunk. */
export function tinyPng(pad = 0): Uint8Array {
  const base = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  if (!pad) return new Uint8Array(base);
  // Bytes after IEND are ignored by decoders: a bigger file that still shows.
  return new Uint8Array(Buffer.concat([base, Buffer.alloc(pad)]));
}
