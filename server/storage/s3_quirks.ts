/**
 * How an S3 storage config becomes S3 client settings: the options of a config, one table of
 * what differs between S3-compatible providers, and the logger the client talks through.
 */
import type { S3ClientConfig } from "@aws-sdk/client-s3";
import { AppError } from "../errors.ts";

export type S3ProviderType = "aws" | "r2" | "b2" | "aliyun_oss" | "minio" | "other";

/** What differs between S3-compatible providers. */
export type ProviderQuirks = {
  /** A region the provider requires whatever is configured (R2: `auto`). */
  region?: string;
  /** Used when no region is configured and none can be read from the endpoint. */
  defaultRegion: string;
  /** Reads the region out of the endpoint host (B2, OSS). */
  regionFromEndpoint?: RegExp;
  /** Addressing the provider requires whatever is configured. */
  forcePathStyle?: boolean;
  /** Addressing used when the config does not say. */
  defaultPathStyle: boolean;
  /** Whether DeleteObjects works without Content-MD5 (else objects are deleted one by one). */
  batchDelete: boolean;
};

/** Each provider's quirks; `other` is any S3-compatible store. */
export const PROVIDER_QUIRKS: Record<S3ProviderType, ProviderQuirks> = {
  aws: { defaultRegion: "us-east-1", defaultPathStyle: false, batchDelete: true },
  r2: { region: "auto", defaultRegion: "auto", defaultPathStyle: true, batchDelete: true },
  b2: {
    defaultRegion: "us-west-004",
    regionFromEndpoint: /^s3\.([a-z0-9-]+)\.backblazeb2\.com$/,
    defaultPathStyle: true,
    batchDelete: false,
  },
  aliyun_oss: {
    defaultRegion: "oss-cn-hangzhou",
    regionFromEndpoint: /^(?:s3\.)?(oss-[a-z0-9-]+?)(?:-internal)?\.aliyuncs\.com$/,
    forcePathStyle: false, // OSS only serves virtual-hosted-style requests
    defaultPathStyle: false,
    batchDelete: false,
  },
  minio: {
    defaultRegion: "us-east-1",
    forcePathStyle: true,
    defaultPathStyle: true,
    batchDelete: true,
  },
  other: { defaultRegion: "us-east-1", defaultPathStyle: true, batchDelete: true },
};

/** The settings of one S3 driver (one storage config). */
export type S3DriverOptions = {
  /** Omit for AWS's own endpoints. */
  endpoint?: string;
  region?: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle?: boolean;
  providerType?: S3ProviderType;
  /** A folder inside the bucket that holds every key of this driver. */
  defaultFolder?: string;
  /** Public base URL (CDN or custom domain) for GET links instead of presigned ones. */
  customHost?: string;
  /** Connect timeout and socket idle timeout, ms (defaults 10 s and 30 s, docs/PRODUCT.md §9.1). */
  timeouts?: { connectMs?: number; idleMs?: number };
  /** Attempts per request including retries (default 3). */
  maxAttempts?: number;
  /** Largest known-size put sent as one PutObject (default 64 MiB). */
  multipartThreshold?: number;
  /** Part size of streamed multipart puts (default 8 MiB, at least 5 MiB). */
  partSize?: number;
};

/** The client settings a config resolves to; throws 502 `storage_error` on a bad endpoint. */
export function resolveS3ClientConfig(opts: S3DriverOptions) {
  const quirks = PROVIDER_QUIRKS[opts.providerType ?? "other"] ?? PROVIDER_QUIRKS.other;
  let host = "";
  try {
    host = opts.endpoint ? new URL(opts.endpoint).hostname : "";
  } catch {
    throw new AppError("storage_error", 502, { message: `Invalid endpoint: ${opts.endpoint}` });
  }
  const fromEndpoint = quirks.regionFromEndpoint?.exec(host)?.[1];
  const region = quirks.region ?? (opts.region || fromEndpoint || quirks.defaultRegion);
  const forcePathStyle = quirks.forcePathStyle ?? opts.pathStyle ?? quirks.defaultPathStyle;
  return {
    region,
    forcePathStyle,
    endpoint: opts.endpoint || undefined,
    batchDelete: quirks.batchDelete,
    maxAttempts: opts.maxAttempts ?? 3,
    connectionTimeout: opts.timeouts?.connectMs ?? 10_000,
    socketTimeout: opts.timeouts?.idleMs ?? 30_000,
  };
}

type SdkLogger = NonNullable<S3ClientConfig["logger"]>;

/**
 * The client's logger. The SDK's retry middleware warns on the console whenever a request with
 * a streamed body fails ("non-retryable streaming request", since such a body cannot be
 * replayed), and any logger other than the default no-op one gets every failed command through
 * `error`. Every such failure already reaches the caller as an AppError carrying the provider's
 * error name and message (`s3_errors.ts`), as with the default logger, so debug, info, error
 * and that one warning are dropped; any other warning still goes to the console.
 */
export const QUIET_S3_LOGGER: SdkLogger = {
  debug() {},
  info() {},
  warn(...args: unknown[]) {
    if (String(args[0] ?? "").includes("non-retryable streaming request")) return;
    console.warn(...args);
  },
  error() {},
};
