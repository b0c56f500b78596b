/**
 * The CORS check for browser uploads: the rule evaluation as a table, then `checkCors` on
 * s3rver (which implements Get/Put/DeleteBucketCors and answers browser-style CORS requests)
 * before and after a configuration, cross-checked against what a browser would be sent.
 */
import assert from "node:assert/strict";
import { AppError } from "../errors.ts";
import { type CorsProblem, type CorsRule, evaluateCorsRules, wildcardMatch } from "./s3_cors.ts";
import { S3Driver } from "./s3.ts";
import { BROWSER_UPLOAD_CORS, startS3rver } from "../../tests/helpers/s3rver.ts";

/** The rule the s3rver helper sets for browser uploads: PUT/GET/HEAD, any header, ETag. */
const GOOD = BROWSER_UPLOAD_CORS[0];

Deno.test("s3 cors: rule evaluation", async (t) => {
  type Case = [string, CorsRule[] | undefined, string | undefined, CorsProblem | "ok", RegExp];
  const cases: Case[] = [
    ["no configuration", undefined, undefined, "no_configuration", /no CORS configuration/],
    ["an empty rule list", [], undefined, "no_configuration", /no CORS configuration/],
    [
      "only GET and HEAD",
      [{ ...GOOD, AllowedMethods: ["GET", "HEAD"] }],
      undefined,
      "no_put",
      /^No CORS rule allows PUT,/,
    ],
    [
      "PUT without any origin",
      [{ ...GOOD, AllowedOrigins: [] }],
      undefined,
      "no_put",
      /No CORS rule allows PUT/,
    ],
    [
      "PUT from another origin",
      [{ ...GOOD, AllowedOrigins: ["https://other.example"] }],
      "https://cubby.example",
      "no_put",
      /No CORS rule allows PUT from https:\/\/cubby\.example/,
    ],
    [
      "no AllowedHeaders",
      [{ ...GOOD, AllowedHeaders: undefined }],
      undefined,
      "no_content_type",
      /does not allow the Content-Type header/,
    ],
    [
      "headers that do not cover Content-Type",
      [{ ...GOOD, AllowedHeaders: ["x-amz-*", "authorization"] }],
      undefined,
      "no_content_type",
      /Content-Type/,
    ],
    [
      "ETag not exposed",
      [{ ...GOOD, AllowedHeaders: ["Content-*"], ExposeHeaders: ["x-amz-request-id"] }],
      undefined,
      "no_etag",
      /^ETag is not exposed by the CORS rule that allows PUT:/,
    ],
    [
      "Content-Type and ETag on different PUT rules",
      [
        { ...GOOD, ExposeHeaders: [] },
        { ...GOOD, AllowedHeaders: [], ExposeHeaders: ["ETag"] },
      ],
      undefined,
      "no_etag",
      /ETag is not exposed/,
    ],
    [
      "from an origin, the first matching rule decides what is exposed",
      [{ ...GOOD, ExposeHeaders: [] }, GOOD],
      "https://cubby.example",
      "no_etag",
      /ETag is not exposed by the CORS rule that allows PUT from https:\/\/cubby\.example/,
    ],
    [
      "the same rules without an origin",
      [{ ...GOOD, ExposeHeaders: [] }, GOOD],
      undefined,
      "ok",
      /^PUT allowed from any origin, Content-Type allowed, ETag exposed; GET and HEAD allowed$/,
    ],
    [
      "a complete rule, header names in any case",
      [{ ...GOOD, AllowedMethods: ["put", "get", "head"], ExposeHeaders: ["etag"] }],
      undefined,
      "ok",
      /^PUT allowed from any origin/,
    ],
    [
      "named origins, and a wildcard origin matching the site",
      [{ ...GOOD, AllowedOrigins: ["https://a.example", "https://*.cubby.example"] }],
      "https://files.cubby.example",
      "ok",
      /^PUT allowed from https:\/\/files\.cubby\.example,/,
    ],
    [
      "named origins without a site origin",
      [{ ...GOOD, AllowedOrigins: ["https://a.example", "https://b.example"] }],
      undefined,
      "ok",
      /^PUT allowed from https:\/\/a\.example, https:\/\/b\.example,/,
    ],
    [
      "PUT only: passes, noting that GET and HEAD are missing",
      [{ ...GOOD, AllowedMethods: ["PUT"], AllowedHeaders: ["content-type"] }],
      undefined,
      "ok",
      /; GET and HEAD not allowed \(in-page previews of direct links may fail\)$/,
    ],
  ];
  for (const [name, rules, origin, expected, message] of cases) {
    await t.step(name, () => {
      const verdict = evaluateCorsRules(rules, origin);
      assert.equal(verdict.ok ? "ok" : verdict.problem, expected, verdict.message);
      assert.match(verdict.message, message);
    });
  }
  await t.step("wildcards match case-insensitively, one run per *", () => {
    assert.ok(wildcardMatch("*", "content-type"));
    assert.ok(wildcardMatch("Content-*", "content-type"));
    assert.ok(wildcardMatch("https://*.example.com", "https://a.b.example.com"));
    assert.ok(!wildcardMatch("https://*.example.com", "https://example.com"));
    assert.ok(!wildcardMatch("content-typ", "content-type"));
    assert.ok(!wildcardMatch("content.type", "content-type"), "a dot is not a wildcard");
  });
});

/** Rejects with storage_error 502 whose details name the CORS problem. */
async function rejectsWithCors(p: Promise<unknown>, problem: CorsProblem, message: RegExp) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected AppError, got ${err}`);
    assert.deepEqual([err.code, err.status, err.details?.cors], ["storage_error", 502, problem]);
    assert.match(String(err.details?.message), message);
    return true;
  });
}

Deno.test({
  name: "s3 cors on s3rver: checkCors before and after PutBucketCors, as a browser sees it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s3 = await startS3rver();
    const d = new S3Driver({ ...s3, pathStyle: true, providerType: "minio" });
    const origin = "https://cubby.example";
    /** A browser's PUT of a presigned URL from `origin`: preflight, then the request. */
    const browserPut = async (key: string) => {
      const url = await d.presignPut(key, { expiresIn: 60, contentType: "text/plain" });
      const preflight = await fetch(url, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "PUT",
          "Access-Control-Request-Headers": "content-type",
        },
      });
      await preflight.body?.cancel();
      const put = await fetch(url, {
        method: "PUT",
        headers: { Origin: origin, "Content-Type": "text/plain" },
        body: "from the browser",
      });
      await put.body?.cancel();
      return { preflight, put };
    };
    try {
      await t.step("no CORS configuration: the check says so", async () => {
        await rejectsWithCors(d.checkCors(), "no_configuration", /has no CORS configuration/);
        const { preflight } = await browserPut("cors/none.txt");
        assert.equal(preflight.status, 403, "s3rver refuses the preflight too");
      });

      await t.step(
        "a rule that hides ETag fails, and the browser indeed cannot read it",
        async () => {
          await s3.setCors([{ ...GOOD, ExposeHeaders: ["x-amz-request-id"] }]);
          await rejectsWithCors(d.checkCors(), "no_etag", /ETag is not exposed/);
          const { put } = await browserPut("cors/hidden.txt");
          assert.equal(put.status, 200);
          const exposed = (put.headers.get("access-control-expose-headers") ?? "").toLowerCase();
          assert.ok(!exposed.split(/,\s*/).includes("etag"), exposed);
        },
      );

      await t.step("a rule without PUT fails", async () => {
        await s3.setCors([{ ...GOOD, AllowedMethods: ["GET", "HEAD"] }]);
        await rejectsWithCors(d.checkCors(origin), "no_put", /No CORS rule allows PUT from/);
      });

      await t.step("a proper rule passes, and the browser can upload and read ETag", async () => {
        await s3.setCors(BROWSER_UPLOAD_CORS);
        assert.equal(
          await d.checkCors(),
          "PUT allowed from any origin, Content-Type allowed, ETag exposed; GET and HEAD allowed",
        );
        assert.match(await d.checkCors(origin), /^PUT allowed from https:\/\/cubby\.example,/);
        const { preflight, put } = await browserPut("cors/ok.txt");
        assert.equal(preflight.status, 200);
        assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /PUT/);
        assert.equal(preflight.headers.get("access-control-allow-headers"), "content-type");
        assert.equal(put.status, 200);
        assert.equal(put.headers.get("access-control-allow-origin"), "*");
        assert.match(put.headers.get("access-control-expose-headers") ?? "", /\bETag\b/);
        assert.ok(put.headers.get("etag"));
        assert.equal((await d.head("cors/ok.txt"))?.size, "from the browser".length);
      });

      await t.step("deleting the configuration fails the check again", async () => {
        await s3.setCors(null);
        await rejectsWithCors(d.checkCors(), "no_configuration", /no CORS configuration/);
      });

      await t.step(
        "a bucket that cannot be read is a storage error, not a CORS verdict",
        async () => {
          const other = new S3Driver({ ...s3, bucket: "missing-bucket", pathStyle: true });
          const wrongKey = new S3Driver({ ...s3, accessKeyId: "WRONG", pathStyle: true });
          try {
            await assert.rejects(other.checkCors(), (err: unknown) => {
              assert.ok(err instanceof AppError);
              assert.deepEqual([err.code, err.details?.provider_code, err.details?.bucket], [
                "storage_bucket_not_found",
                "NoSuchBucket",
                "missing-bucket",
              ]);
              return true;
            });
            await assert.rejects(wrongKey.checkCors(), (err: unknown) => {
              assert.ok(err instanceof AppError);
              assert.equal(err.code, "storage_access_denied");
              assert.match(String(err.details?.message), /Cannot read the bucket's CORS rules/);
              return true;
            });
          } finally {
            other.close();
            wrongKey.close();
          }
        },
      );
    } finally {
      d.close();
      await s3.stop();
    }
  },
});
