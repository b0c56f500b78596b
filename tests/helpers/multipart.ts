/**
 * Test helpers for multipart uploads (file shares under /api/s3/multipart and mount files under
 * /api/fs/multipart): JSON calls, PUTs to presigned URLs, and starting an upload.
 */
import assert from "node:assert/strict";
import type { TestApp } from "./app.ts";

/** POSTs JSON as `auth`; returns the status and the parsed body. */
export async function postJson(t: TestApp, auth: string | undefined, path: string, json: unknown) {
  const res = await t.request(path, { method: "POST", auth, json });
  return { status: res.status, body: await res.json() };
}

/** PUTs bytes to a presigned URL (through the app for Cubby's own URLs, else to the store); returns the ETag. */
export async function putPart(
  t: TestApp,
  url: string,
  body: Uint8Array,
  type?: string,
): Promise<string> {
  const headers: Record<string, string> = type ? { "content-type": type } : {};
  const init: RequestInit = { method: "PUT", body: body as BodyInit, headers };
  const res = url.startsWith("http://127.0.0.1/")
    ? await t.request(url, init)
    : await fetch(url, init);
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  return res.headers.get("etag")!;
}

/**
 * Starts a multipart upload of `data` at an init route (`fields` plus `size`), asserts 200 and
 * returns the upload and `slice(n)`, the bytes of part n.
 */
export async function startMultipart(
  t: TestApp,
  auth: string,
  initPath: string,
  fields: Record<string, unknown>,
  data: Uint8Array,
) {
  const init = await postJson(t, auth, initPath, { ...fields, size: data.length });
  assert.equal(init.status, 200, JSON.stringify(init.body));
  const up = init.body.data;
  const slice = (n: number) => data.subarray((n - 1) * up.part_size, n * up.part_size);
  return { up, slice };
}

/** PUTs every part (`slice(n)`) to its presigned URL in order; returns the parts to complete. */
export async function putParts(
  t: TestApp,
  urls: { partNumber: number; url: string }[],
  slice: (n: number) => Uint8Array,
): Promise<{ partNumber: number; ETag: string }[]> {
  const parts = [];
  for (const p of urls) {
    parts.push({
      partNumber: p.partNumber,
      ETag: await putPart(t, p.url, slice(p.partNumber)),
    });
  }
  return parts;
}
