/**
 * Whether a bucket's CORS rules let a browser upload straight to it: the presigned PUT (and
 * each presigned part PUT) is a cross-origin request with a Content-Type header, and the
 * browser must be able to read the ETag of the response to complete a multipart upload.
 *
 * `evaluateCorsRules` is a pure function over the rules, so its cases are a table in the tests.
 * With an origin it follows S3's matching: the preflight uses the first rule that matches the
 * origin, the method and the requested headers; the PUT itself uses the first rule that
 * matches the origin and the method, and only that rule's ExposeHeaders count. Without an
 * origin a rule counts for whatever origins it names, and one rule must do all three.
 */
import { GetBucketCorsCommand } from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";
import { mapS3Error } from "./s3_errors.ts";
import type { S3Target } from "./s3_target.ts";

/** One CORS rule as GetBucketCors returns it (the SDK's `CORSRule` fits). */
export type CorsRule = {
  AllowedOrigins?: string[];
  AllowedMethods?: string[];
  AllowedHeaders?: string[];
  ExposeHeaders?: string[];
};

/** Why browser uploads would fail, for callers that want more than the message. */
export type CorsProblem = "no_configuration" | "no_put" | "no_content_type" | "no_etag";

/** The outcome: a summary when browsers can upload, else the problem and a message. */
export type CorsVerdict =
  | { ok: true; message: string }
  | { ok: false; problem: CorsProblem; message: string };

const FIX = "allow PUT, GET and HEAD from this site, allow the Content-Type header and " +
  "expose ETag";

/** Judges a bucket's CORS rules for browser uploads (from `origin` when given). */
export function evaluateCorsRules(rules: CorsRule[] | undefined, origin?: string): CorsVerdict {
  if (!rules || rules.length === 0) {
    return {
      ok: false,
      problem: "no_configuration",
      message: "The bucket has no CORS configuration, so browsers cannot upload to it " +
        `directly: add a rule to ${FIX}`,
    };
  }
  const from = origin ? ` from ${origin}` : "";
  const fits = (r: CorsRule) => {
    const origins = r.AllowedOrigins ?? [];
    return origin ? origins.some((o) => wildcardMatch(o, origin)) : origins.length > 0;
  };
  const allows = (r: CorsRule, method: string) =>
    fits(r) && (r.AllowedMethods ?? []).some((m) => m.toUpperCase() === method);
  const putRules = rules.filter((r) => allows(r, "PUT"));
  if (putRules.length === 0) {
    return {
      ok: false,
      problem: "no_put",
      message: `No CORS rule allows PUT${from}, so browsers cannot upload to the bucket ` +
        `directly: add a rule to ${FIX}`,
    };
  }
  const withHeader = putRules.filter(allowsContentType);
  if (withHeader.length === 0) {
    return {
      ok: false,
      problem: "no_content_type",
      message: `The CORS rule that allows PUT${from} does not allow the Content-Type header: ` +
        `add "content-type" (or "*") to its AllowedHeaders`,
    };
  }
  // With an origin, the PUT's response gets the ExposeHeaders of the first rule that matches.
  const candidates = origin ? [putRules[0]] : withHeader;
  const rule = candidates.find(exposesEtag);
  if (!rule) {
    return {
      ok: false,
      problem: "no_etag",
      message: `ETag is not exposed by the CORS rule that allows PUT${from}: add "ETag" to its ` +
        "ExposeHeaders (browsers need it to complete multipart uploads)",
    };
  }
  const origins = rule.AllowedOrigins ?? [];
  const who = origin ?? (origins.includes("*") ? "any origin" : origins.join(", "));
  const reads = ["GET", "HEAD"].filter((m) => !rules.some((r) => allows(r, m)));
  const note = reads.length === 0
    ? "GET and HEAD allowed"
    : `${reads.join(" and ")} not allowed (in-page previews of direct links may fail)`;
  return {
    ok: true,
    message: `PUT allowed from ${who}, Content-Type allowed, ETag exposed; ${note}`,
  };
}

/**
 * Reads the bucket's CORS rules and returns a one-line summary when browsers can upload.
 * Throws 502 `storage_error` with a message naming what is missing (`details.cors` holds the
 * problem), 403 `storage_access_denied` when the key may not read the rules, and 502 when the
 * provider does not offer GetBucketCors.
 */
export async function checkBucketCors(t: S3Target, origin?: string): Promise<string> {
  let rules: CorsRule[] | undefined;
  try {
    const res = await t.client.send(new GetBucketCorsCommand({ Bucket: t.bucket }));
    rules = res.CORSRules;
  } catch (err) {
    const name = (err as { name?: string })?.name;
    if (name !== "NoSuchCORSConfiguration") throw corsReadError(err, t.bucket);
  }
  const verdict = evaluateCorsRules(rules, origin);
  if (verdict.ok) return verdict.message;
  throw new AppError("storage_error", 502, {
    message: verdict.message,
    cors: verdict.problem,
    bucket: t.bucket,
  });
}

/** Provider codes that mean the access key or its secret is wrong, whatever the request. */
const CREDENTIAL_ERRORS = new Set([
  "SignatureDoesNotMatch",
  "InvalidAccessKeyId",
  "InvalidSecurity",
  "InvalidToken",
]);

function corsReadError(err: unknown, bucket: string): unknown {
  const mapped = mapS3Error(err, bucket);
  if (!(mapped instanceof AppError)) return mapped;
  const name = String(mapped.details?.provider_code ?? "");
  if (CREDENTIAL_ERRORS.has(name)) {
    // Every request fails the same way: the rules are not the problem, the credentials are.
    return new AppError("storage_access_denied", 403, {
      ...mapped.details,
      message: `Cannot read the bucket's CORS rules: the provider refused the credentials ` +
        `(${name}). Check the access key ID and the secret key`,
    });
  }
  if (mapped.code === "storage_access_denied") {
    return new AppError("storage_access_denied", 403, {
      ...mapped.details,
      message: `Cannot read the bucket's CORS rules: access denied (${name}). The key may ` +
        "lack s3:GetBucketCORS; check the rules in the provider's console",
    });
  }
  if (name === "NotImplemented" || mapped.details?.status === 501) {
    return new AppError("storage_error", 502, {
      ...mapped.details,
      message: "The provider does not report CORS rules through the S3 API; check them in " +
        "its console",
    });
  }
  return mapped;
}

function allowsContentType(rule: CorsRule): boolean {
  return (rule.AllowedHeaders ?? []).some((h) => wildcardMatch(h, "content-type"));
}

function exposesEtag(rule: CorsRule): boolean {
  return (rule.ExposeHeaders ?? []).some((h) => h.trim().toLowerCase() === "etag");
}

/** Case-insensitive match where each `*` stands for any run of characters (as S3 does). */
export function wildcardMatch(pattern: string, value: string): boolean {
  const parts = pattern.trim().toLowerCase().split("*");
  const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`).test(value.trim().toLowerCase());
}
