/**
 * A wrong secret key against SeaweedFS, which verifies SigV4 as S3 does: the driver, the
 * storage-config test and an upload through the API all fail with `storage_access_denied` and
 * the provider's reason, never a 500 or a message that blames something else.
 */
import assert from "node:assert/strict";
import { AppError } from "../errors.ts";
import { S3Driver } from "./s3.ts";
import { MiB, randomBytes } from "../../tests/helpers/bytes.ts";
import { startSeaweedfs } from "../../tests/helpers/seaweedfs.ts";
import { createTestApp } from "../../tests/helpers/app.ts";

/** A stream of `bytes` in 64 KiB chunks, as a network body would arrive. */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i >= bytes.length) return c.close();
      c.enqueue(bytes.slice(i, i += 65536));
    },
  });
}
const SIGNATURE = /signature we calculated does not match/i;

function deniedForSignature(err: unknown): true {
  assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
  assert.equal(err.code, "storage_access_denied");
  assert.equal(err.status, 403);
  assert.equal(err.details?.provider_code, "SignatureDoesNotMatch");
  return true;
}

Deno.test({
  name: "a wrong S3 secret is refused by SeaweedFS, with a clear error on every path",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using sw = await startSeaweedfs();
    const fields = {
      endpoint: sw.endpoint,
      bucket: sw.bucket,
      region: sw.region,
      accessKeyId: sw.accessKeyId,
      secretAccessKey: `${sw.secretAccessKey}x`,
    };

    await t.step("the driver: puts of every shape, reads and listings", async () => {
      const d = new S3Driver({
        ...fields,
        pathStyle: true,
        providerType: "other",
        partSize: 5 * MiB,
        multipartThreshold: 4 * MiB,
      });
      try {
        await assert.rejects(d.put("a.txt", "hello"), deniedForSignature);
        const known = randomBytes(MiB);
        await assert.rejects(
          d.put("b.bin", chunked(known), { size: known.length }),
          deniedForSignature,
        );
        await assert.rejects(d.put("c.bin", chunked(randomBytes(9 * MiB))), deniedForSignature);
        await assert.rejects(d.get("a.txt"), deniedForSignature);
        await assert.rejects(d.list(""), deniedForSignature);
        await assert.rejects(d.createMultipart("m.bin"), deniedForSignature);
        await assert.rejects(d.checkCors(), (err: unknown) => {
          deniedForSignature(err);
          const message = String((err as AppError).details?.message);
          assert.match(message, /secret/i, "names the credentials");
          assert.doesNotMatch(message, /GetBucketCORS/, "does not blame a permission");
          return true;
        });
      } finally {
        d.close();
      }
    });

    await using app = await createTestApp();
    const admin = await app.adminAuth();
    const cfg = await app.createStorageConfig({
      name: "seaweedfs, wrong secret",
      provider_type: "other",
      endpoint_url: fields.endpoint,
      bucket_name: fields.bucket,
      access_key_id: fields.accessKeyId,
      secret_access_key: fields.secretAccessKey,
      path_style: true,
    });

    await t.step("the storage-config test reports the refused write", async () => {
      const res = await app.request(`/api/s3-configs/${cfg.id}/test`, {
        method: "POST",
        auth: admin,
      });
      const body = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.data.ok, false);
      const steps = Object.fromEntries(
        body.data.steps.map((s: { step: string }) => [s.step, s]),
      );
      assert.equal(steps.connect.ok, true);
      assert.equal(steps.write.ok, false);
      assert.match(steps.write.message, SIGNATURE);
      assert.equal(steps.cors.ok, false);
      assert.match(steps.cors.message, /secret/i);
      assert.doesNotMatch(steps.cors.message, /GetBucketCORS/);
    });

    await t.step("an upload to that storage fails with storage_access_denied", async () => {
      const res = await app.request(`/api/upload-direct/data.bin?s3_config_id=${cfg.id}`, {
        method: "PUT",
        auth: admin,
        body: crypto.getRandomValues(new Uint8Array(4096)),
      });
      const body = await res.json();
      assert.equal(res.status, 403, JSON.stringify(body));
      assert.equal(body.success, false);
      assert.equal(body.code, 403);
      assert.equal(body.error, "storage_access_denied");
    });
  },
});
