/** Test helpers for shares, made through the app's real POST /api/upload and /api/paste routes. */
import assert from "node:assert/strict";
import type { TestApp } from "./app.ts";
import type { FileView } from "../../shared/schemas/files.ts";
import type { PasteView } from "../../shared/schemas/pastes.ts";

/** Asserts 201 Created and returns the envelope's data: the new share's view. */
async function created(res: Response) {
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).data;
}

/**
 * Shares one file through POST /api/upload as the admin, with `fields` sent before the file;
 * asserts 201 Created and returns the share's view.
 */
export async function shareFile(
  t: TestApp,
  bytes: BlobPart,
  filename: string,
  fields: Record<string, string> = {},
): Promise<FileView> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set("file", new Blob([bytes]), filename);
  const res = await t.request("/api/upload", {
    method: "POST",
    auth: await t.adminAuth(),
    body: fd,
  });
  return await created(res);
}

/** Shares a paste through POST /api/paste as the admin with `fields`; asserts 201, returns its view. */
export async function sharePaste(t: TestApp, fields: Record<string, unknown>): Promise<PasteView> {
  const res = await t.request("/api/paste", {
    method: "POST",
    auth: await t.adminAuth(),
    json: fields,
  });
  return await created(res);
}
