/**
 * S3-only cases: provider quirks, path-style and virtual-hosted URLs, presigned PUTs without
 * checksums, defaultFolder and customHost, error mapping, and listings over 1,000 keys.
 */
import assert from "node:assert/strict";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import { mapS3Error, resolveS3ClientConfig, S3Driver, type S3DriverOptions } from "./s3.ts";
import { startS3rver } from "../../tests/helpers/s3rver.ts";

const BASE: S3DriverOptions = {
  bucket: "media",
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};

async function rejectsWith(p: Promise<unknown>, code: string, status: number) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.deepEqual([err.code, err.status], [code, status]);
    return true;
  });
}

Deno.test("s3: provider quirks decide region and addressing", () => {
  const cfg = (o: Partial<S3DriverOptions>) => {
    const { region, forcePathStyle, batchDelete } = resolveS3ClientConfig({ ...BASE, ...o });
    return { region, forcePathStyle, batchDelete };
  };
  assert.deepEqual(cfg({ providerType: "aws" }), {
    region: "us-east-1",
    forcePathStyle: false,
    batchDelete: true,
  });
  assert.deepEqual(cfg({ providerType: "aws", region: "eu-west-3", pathStyle: true }), {
    region: "eu-west-3",
    forcePathStyle: true,
    batchDelete: true,
  });
  assert.deepEqual(
    cfg({
      providerType: "r2",
      region: "us-east-1",
      endpoint: "https://acc.r2.cloudflarestorage.com",
    }),
    { region: "auto", forcePathStyle: true, batchDelete: true },
  );
  assert.deepEqual(
    cfg({ providerType: "b2", endpoint: "https://s3.eu-central-003.backblazeb2.com" }),
    { region: "eu-central-003", forcePathStyle: true, batchDelete: false },
  );
  assert.deepEqual(
    cfg({
      providerType: "aliyun_oss",
      endpoint: "https://oss-cn-shanghai.aliyuncs.com",
      pathStyle: true,
    }),
    { region: "oss-cn-shanghai", forcePathStyle: false, batchDelete: false },
  );
  assert.deepEqual(cfg({ providerType: "minio", pathStyle: false }), {
    region: "us-east-1",
    forcePathStyle: true,
    batchDelete: true,
  });
  assert.deepEqual(cfg({ providerType: "other" }).forcePathStyle, true);
  assert.deepEqual(cfg({ providerType: "other", pathStyle: false }).forcePathStyle, false);
  const t = resolveS3ClientConfig({ ...BASE, timeouts: { connectMs: 1234, idleMs: 5678 } });
  assert.deepEqual([t.connectionTimeout, t.socketTimeout, t.maxAttempts], [1234, 5678, 3]);
});

Deno.test("s3: presigned URLs use path-style or virtual-hosted addressing", async () => {
  const path = new S3Driver({ ...BASE, endpoint: "http://127.0.0.1:9000", pathStyle: true });
  const vhost = new S3Driver({ ...BASE, endpoint: "https://s3.example.com", pathStyle: false });
  const oss = new S3Driver({
    ...BASE,
    providerType: "aliyun_oss",
    endpoint: "https://oss-cn-hangzhou.aliyuncs.com",
    pathStyle: true,
  });
  try {
    const a = new URL(await path.presignGet("a b/c.txt", { expiresIn: 60 }));
    assert.equal(a.host, "127.0.0.1:9000");
    assert.equal(a.pathname, "/media/a%20b/c.txt");
    const b = new URL(await vhost.presignGet("a b/c.txt", { expiresIn: 60 }));
    assert.equal(b.host, "media.s3.example.com");
    assert.equal(b.pathname, "/a%20b/c.txt");
    const c = new URL(await oss.presignGet("k.txt", { expiresIn: 60 }));
    assert.equal(c.host, "media.oss-cn-hangzhou.aliyuncs.com");
    assert.equal(a.searchParams.get("X-Amz-Expires"), "60");
    const week = new URL(await path.presignGet("k", { expiresIn: 30 * 24 * 3600 }));
    assert.equal(week.searchParams.get("X-Amz-Expires"), String(7 * 24 * 3600));
  } finally {
    path.close();
    vhost.close();
    oss.close();
  }
});

Deno.test("s3: presigned PUT and part URLs carry no checksum parameters", async () => {
  const d = new S3Driver({ ...BASE, providerType: "aws", region: "us-east-1" });
  try {
    for (
      const url of [
        await d.presignPut("up/file.bin", { expiresIn: 600, contentType: "image/png" }),
        await d.presignPart("up/file.bin", "upload-1", 3, { expiresIn: 600 }),
      ]
    ) {
      const u = new URL(url);
      assert.equal(u.host, "media.s3.us-east-1.amazonaws.com");
      const names = [...u.searchParams.keys()].map((k) => k.toLowerCase());
      assert.ok(!names.some((k) => k.includes("checksum")), url);
      assert.ok(!names.includes("x-amz-sdk-checksum-algorithm"), url);
    }
    const part = new URL(await d.presignPart("up/file.bin", "upload-1", 3, { expiresIn: 600 }));
    assert.deepEqual([part.searchParams.get("uploadId"), part.searchParams.get("partNumber")], [
      "upload-1",
      "3",
    ]);
  } finally {
    d.close();
  }
});

Deno.test("s3: customHost turns GET links into public CDN URLs", async () => {
  const d = new S3Driver({
    ...BASE,
    endpoint: "http://127.0.0.1:9000",
    defaultFolder: "/site/files/",
    customHost: "https://cdn.example.com/",
  });
  try {
    assert.equal(
      await d.presignGet("a b/ü.png", { expiresIn: 60 }),
      "https://cdn.example.com/site/files/a%20b/%C3%BC.png",
    );
    assert.match(await d.presignPut("x", { expiresIn: 60 }), /^http:\/\/127\.0\.0\.1:9000\//);
  } finally {
    d.close();
  }
});

Deno.test("s3: errors map to AppError codes", () => {
  const err = (name: string, status: number) =>
    mapS3Error(
      Object.assign(new Error(`${name} happened`), { name, $metadata: { httpStatusCode: status } }),
      "k",
    ) as AppError;
  const table: [string, number, string, number][] = [
    ["NoSuchKey", 404, "storage_object_not_found", 404],
    ["NotFound", 404, "storage_object_not_found", 404],
    ["NoSuchUpload", 404, "storage_upload_not_found", 404],
    ["AccessDenied", 403, "storage_access_denied", 403],
    ["Forbidden", 403, "storage_access_denied", 403],
    ["InvalidRange", 416, "storage_range_invalid", 400],
    ["InvalidPart", 400, "storage_multipart_invalid", 400],
    ["EntityTooSmall", 400, "storage_multipart_invalid", 400],
    ["NoSuchBucket", 404, "storage_bucket_not_found", 502],
    ["SlowDown", 503, "storage_error", 502],
    ["InternalError", 500, "storage_error", 502],
  ];
  for (const [name, status, code, out] of table) {
    const e = err(name, status);
    assert.deepEqual([e.code, e.status], [code, out], name);
    assert.equal(e.details?.message, `${name} happened`);
    assert.equal(e.details?.provider_code, name);
  }
  const ac = new AbortController();
  ac.abort(new Error("client left"));
  assert.equal((mapS3Error(new Error("x"), "k", ac.signal) as Error).message, "client left");
});

Deno.test("s3: an unreachable endpoint is 502 storage_error", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close(); // nothing listens there now
  const d = new S3Driver({
    ...BASE,
    endpoint: `http://127.0.0.1:${port}`,
    pathStyle: true,
    maxAttempts: 1,
    timeouts: { connectMs: 2000, idleMs: 2000 },
  });
  try {
    await rejectsWith(d.get("x"), "storage_error", 502);
    await rejectsWith(d.put("x", "body"), "storage_error", 502);
  } finally {
    d.close();
  }
});

Deno.test({
  name: "s3 on s3rver: defaultFolder, content types, markers, big listings",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s3 = await startS3rver();
    const opts = { ...s3, pathStyle: true, providerType: "minio" as const };
    const raw = new S3Driver(opts);
    const scoped = new S3Driver({ ...opts, defaultFolder: "tenant/a" });
    try {
      await t.step("defaultFolder prefixes every key and is stripped from listings", async () => {
        await scoped.put("docs/x.txt", "scoped");
        await raw.put("tenant/b/y.txt", "other tenant");
        assert.equal(
          await new Response((await raw.get("tenant/a/docs/x.txt")).body).text(),
          "scoped",
        );
        const page = await scoped.list("", { delimiter: "/" });
        assert.deepEqual([page.items, page.prefixes], [[], ["docs/"]]);
        assert.deepEqual((await scoped.list("docs/")).items.map((i) => i.key), ["docs/x.txt"]);
        await scoped.copy("docs/x.txt", "docs/y.txt");
        assert.ok(await raw.head("tenant/a/docs/y.txt"));
        await scoped.deletePrefix("docs/");
        assert.equal(await raw.head("tenant/a/docs/x.txt"), null);
        assert.ok(await raw.head("tenant/b/y.txt"), "deletePrefix stays inside the folder");
      });

      await t.step("an explicit content type is stored; otherwise the extension's", async () => {
        await raw.put("types/data.bin", "{}", { contentType: "application/json" });
        await raw.put("types/page.html", "<p>");
        assert.equal((await raw.head("types/data.bin"))?.contentType, "application/json");
        assert.equal((await raw.get("types/page.html")).contentType, "text/html; charset=utf-8");
        const id = await raw.createMultipart("types/movie", { contentType: "video/mp4" });
        const p = await raw.uploadPart("types/movie", id, 1, "frames");
        await raw.completeMultipart("types/movie", id, [{ partNumber: 1, ...p }]);
        assert.equal((await raw.head("types/movie"))?.contentType, "video/mp4");
      });

      await t.step("folder marker objects (keys ending in /) are not listed", async () => {
        await raw.client.send(
          new PutObjectCommand({ Bucket: s3.bucket, Key: "marked/", Body: new Uint8Array() }),
        );
        await raw.put("marked/inside.txt", "x");
        const page = await raw.list("marked/", { delimiter: "/" });
        assert.deepEqual(page.items.map((i) => i.key), ["marked/inside.txt"]);
      });

      await t.step("a streamed put of the wrong size fails fast on both paths", async () => {
        const small = new S3Driver({ ...opts, multipartThreshold: 1024, partSize: 5 * 1024 ** 2 });
        try {
          const stream = (n: number) => new Blob([new Uint8Array(n)]).stream();
          await rejectsWith(
            small.put("sz/a", stream(500), { size: 600 }),
            "storage_size_mismatch",
            400,
          );
          await rejectsWith(
            small.put("sz/b", stream(6 * 1024 ** 2), { size: 7 * 1024 ** 2 }),
            "storage_size_mismatch",
            400,
          );
          await rejectsWith(
            small.put("sz/c", stream(6 * 1024 ** 2), { size: 2048 }),
            "storage_size_mismatch",
            400,
          );
          assert.deepEqual((await small.list("sz/")).items, []);
        } finally {
          small.close();
        }
      });

      await t.step("over 1,000 keys: pages of at most 1000, prefixes never repeated", async () => {
        const keys = Array.from({ length: 1200 }, (_, i) => `big/k${String(i).padStart(4, "0")}`);
        // "big/k0999z/" sorts between the 1000th and 1001st key: s3rver reports it on both pages
        const folders = ["big/k0999z/", "big/k0500x/", "big/zzz/"];
        let next = 0;
        await Promise.all(
          Array.from({ length: 32 }, async () => {
            while (next < keys.length) await raw.put(keys[next++], "x");
          }),
        );
        for (const f of folders) await raw.put(f + "inner.txt", "x");
        const items: string[] = [];
        const prefixes: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await raw.list("big/", { delimiter: "/", limit: 5000, cursor });
          assert.ok(page.items.length <= 1000);
          items.push(...page.items.map((i) => i.key));
          prefixes.push(...page.prefixes);
          cursor = page.cursor;
          pages++;
        } while (cursor);
        assert.equal(pages, 2);
        assert.deepEqual(items, keys);
        assert.deepEqual(prefixes.sort(), [...folders].sort());
        await rejectsWith(raw.list("big/", { cursor: "not a cursor" }), "validation_failed", 400);
      });
    } finally {
      raw.close();
      scoped.close();
      await s3.stop();
    }
  },
});
