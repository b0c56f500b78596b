/**
 * A storage config whose bucket does not exist: every upload path names that cause (502
 * storage_bucket_not_found with the bucket), never a browser-side CORS failure. The presigned
 * PUT is checked on the server first, because a browser cannot tell a missing bucket (a 404
 * without CORS headers) from missing CORS rules.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../../tests/helpers/app.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";

Deno.test("uploads to a bucket that does not exist say so, on every path", async () => {
  await using t = await createTestApp();
  await using s3 = await startS3rver();
  const admin = await t.adminAuth();
  const cfg = await t.createS3rverConfig({ ...s3, bucket: "no-such-bucket" }, { name: "Gone" });
  const en = { "accept-language": "en-US" };
  const message =
    'The bucket "no-such-bucket" does not exist: create it, or correct the bucket name in the storage config';
  const expectMissing = async (res: Response, label: string) => {
    const body = await res.json();
    assert.equal(res.status, 502, `${label}: ${JSON.stringify(body)}`);
    assert.equal(body.error, "storage_bucket_not_found", label);
    assert.equal(body.message, message, label);
  };

  // The browser's direct upload: refused before any URL is handed out.
  await expectMissing(
    await t.request("/api/s3/presign", {
      method: "POST",
      auth: admin,
      headers: en,
      json: { filename: "a.txt", size: 3, s3_config_id: cfg.id, mimetype: "text/plain" },
    }),
    "presign",
  );
  // Multipart, started by the server.
  await expectMissing(
    await t.request("/api/s3/multipart/init", {
      method: "POST",
      auth: admin,
      headers: en,
      json: { filename: "b.bin", size: 6 * 1024 * 1024, s3_config_id: cfg.id },
    }),
    "multipart init",
  );
  // Streamed through Cubby.
  const fd = new FormData();
  fd.set("s3_config_id", cfg.id);
  fd.set("file", new Blob(["abc"]), "c.txt");
  await expectMissing(
    await t.request("/api/upload", { method: "POST", auth: admin, headers: en, body: fd }),
    "upload",
  );

  // The same config pointed at the real bucket works again.
  const fixed = await t.request(`/api/s3-configs/${cfg.id}`, {
    method: "PUT",
    auth: admin,
    json: { bucket_name: s3.bucket },
  });
  assert.equal(fixed.status, 200);
  const ok = await t.request("/api/s3/presign", {
    method: "POST",
    auth: admin,
    json: { filename: "a.txt", size: 3, s3_config_id: cfg.id, mimetype: "text/plain" },
  });
  assert.equal(ok.status, 200, await ok.text());
});
