/**
 * FsUploadService on a real app: multipart and presigned uploads into a local mount, their
 * bytes sent to the signed URLs the service hands out (the app's local storage route).
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { adminAuth, type Auth, keyAuth } from "../services/auth.ts";
import { AppError } from "../errors.ts";

const ADMIN = adminAuth();

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${err}`);
  return `${err.status} ${err.code}`;
}

/** PUTs a body to a signed URL of the local store; returns the answer's ETag. */
async function putTo(t: TestApp, url: string, body: string): Promise<string> {
  const u = new URL(url, "http://localhost");
  const res = await t.request(u.pathname + u.search, { method: "PUT", body });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  return res.headers.get("etag") ?? "";
}

async function keyOf(t: TestApp, name: string): Promise<Auth> {
  const { id } = await t.createKey({ mount_view: true, mount_upload: true }, { name });
  return keyAuth((await t.services.apiKeys.getRecord(id))!);
}

Deno.test("fs uploads: a multipart upload is signed, resumed, completed and forgotten", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const up = t.services.fsUploads;
  const init = await up.init({ path: "/m/big.txt", size: 11 }, ADMIN);
  assert.equal(init.total_parts, 1);
  assert.equal(init.presigned_urls.length, 1);
  const etag = await putTo(t, init.presigned_urls[0].url, "hello world");
  const listed = await up.listParts("/m/big.txt", init.upload_id, ADMIN);
  assert.deepEqual(listed.parts.map((p) => [p.partNumber, p.size]), [[1, 11]]);
  assert.equal((await up.listUploads("/m", ADMIN)).uploads.length, 1);
  const entry = await up.complete(
    "/m/big.txt",
    init.upload_id,
    [{ partNumber: 1, ETag: etag }],
    ADMIN,
  );
  assert.equal(entry.size, 11);
  assert.deepEqual((await up.listUploads("/m", ADMIN)).uploads, []);
  assert.equal(
    await codeOf(up.abort("/m/big.txt", init.upload_id, await keyOf(t, "k"))),
    "404 upload_not_found",
  );
});

Deno.test("fs uploads: only the creator (or the admin) may act on an upload, at its own path", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const up = t.services.fsUploads;
  const [one, two] = [await keyOf(t, "one"), await keyOf(t, "two")];
  const init = await up.init({ path: "/m/a.bin", size: 3 }, one);
  assert.equal(await codeOf(up.listParts("/m/a.bin", init.upload_id, two)), "403 not_creator");
  assert.equal(await codeOf(up.abort("/m/other.bin", init.upload_id, one)), "404 upload_not_found");
  assert.equal(
    await codeOf(up.refreshUrls("/m/a.bin", init.upload_id, [2], one)),
    "400 validation_failed",
  );
  assert.equal(
    (await up.refreshUrls("/m/a.bin", init.upload_id, [1], one)).presigned_urls.length,
    1,
  );
  assert.deepEqual((await up.listUploads("/m", two)).uploads, []);
  const own = (await up.listUploads("/m", one)).uploads;
  assert.deepEqual(own.map((u) => [u.upload_id, u.size, u.total_parts]), [[init.upload_id, 3, 1]]);
  await up.abort("/m/a.bin", init.upload_id, one);
  assert.deepEqual((await up.listUploads("/m", ADMIN)).uploads, []);
});

Deno.test("fs uploads: a presigned PUT is committed only as announced, and within the limit", async () => {
  await using t = await createTestApp();
  await t.createMount("/m", { name: "m" });
  const up = t.services.fsUploads;
  await t.services.fs.upload("/m", "taken.txt", new Blob(["x"]).stream(), ADMIN);
  assert.equal(
    await codeOf(up.presign({ path: "/m/taken.txt", on_conflict: "fail" }, ADMIN)),
    "409 file_exists",
  );
  const renamed = await up.presign({ path: "/m/taken.txt", on_conflict: "rename" }, ADMIN);
  assert.equal(renamed.path, "/m/taken (1).txt");
  assert.equal(
    await codeOf(up.commit({ path: renamed.path, size: 3 }, ADMIN)),
    "400 upload_incomplete",
  );
  await putTo(t, renamed.upload_url, "abc");
  assert.equal(
    await codeOf(up.commit({ path: renamed.path, size: 4 }, ADMIN)),
    "400 upload_incomplete",
  );
  assert.equal(
    await codeOf(up.commit({ path: renamed.path, etag: '"nope"' }, ADMIN)),
    "409 upload_etag_mismatch",
  );
  assert.equal((await up.commit({ path: renamed.path, size: 3 }, ADMIN)).size, 3);
  // The limit shrinks after the URL was handed out: the commit deletes what came.
  const late = await up.presign({ path: "/m/late.bin", size: 2000 }, ADMIN);
  await putTo(t, late.upload_url, "z".repeat(2000));
  await t.services.settings.updateGroup(1, { max_upload_size: 1, max_upload_size_unit: "KB" });
  assert.equal(await codeOf(up.commit({ path: "/m/late.bin" }, ADMIN)), "413 file_too_large");
  assert.equal(await t.services.fs.stat("/m/late.bin", ADMIN), null);
  assert.equal(await codeOf(up.init({ path: "/m/x", size: 2000 }, ADMIN)), "413 file_too_large");
});
