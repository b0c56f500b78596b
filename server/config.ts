/** Server configuration: the only module that reads the environment. Parsed once, passed down. */
import { join, resolve } from "node:path";

export type Config = {
  port: number;
  hostname: string;
  dataDir: string;
  /** Remote KV (KV Connect) URL; null means the local KV file under dataDir. */
  kvUrl: string | null;
  kvPath: string;
  adminUsername: string | null;
  adminPassword: string | null;
  encryptionSecret: string | null;
  /** PBKDF2-SHA256 iterations for admin and share passwords. */
  kdfIterations: number;
  /** Where the built client lives (dist/). */
  distDir: string;
  /** Trust X-Forwarded-For for client addresses (behind a reverse proxy). */
  trustProxy: boolean;
  /** Allow server-side fetches to loopback addresses (tests only). */
  allowLoopbackFetch: boolean;
  /** Run the expired-share sweeper every N ms; 0 turns it off. */
  sweepIntervalMs: number;
  /** Failed attempts allowed per subject and window, per scope (see rate_limit_repo.ts). */
  rateLimits: RateLimits;
  /** Password checks (PBKDF2) that may run at once; more wait in a queue of `kdfQueue`. */
  kdfConcurrency: number;
  /** Password checks that may wait for a slot; beyond that, or after 10 s, 429. */
  kdfQueue: number;
  /**
   * How long views of shares without a view limit wait in memory before they are added to KV
   * (VIEW_FLUSH_MS); a crash loses at most this much of those statistics.
   */
  viewFlushMs: number;
  /**
   * A request body that sends no byte for this long while the server waits for it is answered
   * 408 `request_body_timeout` (BODY_IDLE_TIMEOUT_MS).
   */
  bodyIdleTimeoutMs: number;
};

/** One limit: at most `max` failed attempts per subject in a fixed window of `windowMs`. */
export type RateLimitRule = { max: number; windowMs: number };

/** The limited scopes: admin login, share passwords, WebDAV Basic, and API keys. */
export type RateLimitScope =
  | "login"
  | "sharePassword"
  | "webdavLogin"
  | "apiKeyClient"
  | "apiKeyPrefix";

export type RateLimits = Record<RateLimitScope, RateLimitRule>;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  /** Per client address and username (and per client for the account form). */
  login: { max: 5, windowMs: 15 * 60_000 },
  /** Per client address and share. */
  sharePassword: { max: 10, windowMs: 5 * 60_000 },
  /** Per client address, for WebDAV Basic credentials. */
  webdavLogin: { max: 10, windowMs: 15 * 60_000 },
  /** Unknown API keys per client address. */
  apiKeyClient: { max: 10, windowMs: 15 * 60_000 },
  /** Unknown API keys per key prefix (first 6 characters), from every client together. */
  apiKeyPrefix: { max: 50, windowMs: 15 * 60_000 },
};

export const DEFAULT_KDF_ITERATIONS = 600_000;

/** Builds the config from an environment map (Deno.env.toObject() in production). */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const dataDir = resolve(env.DATA_DIR || "./data");
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Invalid PORT "${env.PORT}"`);
  }
  return {
    port,
    hostname: env.HOST || "0.0.0.0",
    dataDir,
    kvUrl: env.KV_URL || null,
    kvPath: join(dataDir, "cubby.kv"),
    adminUsername: env.ADMIN_USERNAME || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    encryptionSecret: env.ENCRYPTION_SECRET || null,
    kdfIterations: DEFAULT_KDF_ITERATIONS,
    distDir: resolve(env.CUBBY_DIST_DIR || join(import.meta.dirname ?? ".", "..", "dist")),
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    allowLoopbackFetch: env.CUBBY_ALLOW_LOOPBACK_FETCH === "1",
    sweepIntervalMs: Number(env.SWEEP_INTERVAL_MS ?? 60_000),
    rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
    kdfConcurrency: 2,
    kdfQueue: 32,
    viewFlushMs: parseViewFlushMs(env.VIEW_FLUSH_MS),
    bodyIdleTimeoutMs: parseBodyIdleTimeoutMs(env.BODY_IDLE_TIMEOUT_MS),
  };
}

function parseBodyIdleTimeoutMs(raw: string | undefined): number {
  const ms = Number(raw ?? 30_000);
  if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000) {
    throw new Error(`Invalid BODY_IDLE_TIMEOUT_MS "${raw}": give milliseconds from 1 to 3600000`);
  }
  return ms;
}

function parseViewFlushMs(raw: string | undefined): number {
  const ms = Number(raw ?? 1_000);
  if (!Number.isInteger(ms) || ms < 1 || ms > 60_000) {
    throw new Error(`Invalid VIEW_FLUSH_MS "${raw}": give milliseconds from 1 to 60000`);
  }
  return ms;
}
