/** Server configuration: the only module that reads the environment. Parsed once, passed down. */
import { join, resolve } from "node:path";
import { parseTrustProxy } from "./lib/client_address.ts";

export type Config = {
  port: number;
  hostname: string;
  dataDir: string;
  /** Remote KV (KV Connect) URL; null means the local KV file under dataDir. */
  kvUrl: string | null;
  /** How long a call to the remote KV may take before it fails with 503 (KV_TIMEOUT_MS). */
  kvTimeoutMs: number;
  kvPath: string;
  adminUsername: string | null;
  adminPassword: string | null;
  encryptionSecret: string | null;
  /** PBKDF2-SHA256 iterations for admin and share passwords. */
  kdfIterations: number;
  /** Where the built client lives (dist/). */
  distDir: string;
  /**
   * CIDR ranges of the reverse proxies whose X-Forwarded-For is read (TRUST_PROXY; loopback
   * by default, empty for none).
   */
  trustProxy: string[];
  /** Allow server-side fetches to loopback addresses (tests only). */
  allowLoopbackFetch: boolean;
  /** Run the expired-share sweeper every N ms; 0 turns it off. */
  sweepIntervalMs: number;
  /** How password guesses and unknown API keys are limited (see docs/DECISIONS.md). */
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

/**
 * A password limit (see slowdown_repo.ts): `free` attempts per subject run at once; each further
 * one is scheduled `delayMs` after the one before, the gap doubling up to `maxDelayMs`. A request
 * waits for its slot when that is at most `maxHoldMs` away, and is answered 429 otherwise. A
 * success clears the subject; so does `forgetMs` of quiet after its last slot.
 */
export type SlowdownRule = {
  free: number;
  delayMs: number;
  maxDelayMs: number;
  maxHoldMs: number;
  forgetMs: number;
};

/** A fixed window: at most `max` failures per subject in `windowMs` (see rate_limit_repo.ts). */
export type WindowRule = { max: number; windowMs: number };

/** The password scopes: admin login and account form, share passwords, WebDAV Basic. */
export type SlowdownScope = "login" | "sharePassword" | "webdavLogin";

export type RateLimits = Record<SlowdownScope, SlowdownRule> & {
  /** Unknown API keys per client address; known keys are never counted nor refused. */
  apiKeyClient: WindowRule;
};

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  /** Per client address and username (and per client for the account form), or per device. */
  login: {
    free: 5,
    delayMs: SECOND,
    maxDelayMs: 5 * MINUTE,
    maxHoldMs: 10 * SECOND,
    forgetMs: 60 * MINUTE,
  },
  /** Per client address and share. */
  sharePassword: {
    free: 10,
    delayMs: SECOND,
    maxDelayMs: MINUTE,
    maxHoldMs: 10 * SECOND,
    forgetMs: 60 * MINUTE,
  },
  /** Per client address and username, for WebDAV Basic with the admin password. */
  webdavLogin: {
    free: 10,
    delayMs: SECOND,
    maxDelayMs: 5 * MINUTE,
    maxHoldMs: 10 * SECOND,
    forgetMs: 60 * MINUTE,
  },
  apiKeyClient: { max: 10, windowMs: 15 * MINUTE },
};

export const DEFAULT_KDF_ITERATIONS = 600_000;

/** Builds the config from an environment map (Deno.env.toObject() in production). */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const dataDir = resolve(env.DATA_DIR || "./data");
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Invalid PORT "${env.PORT}"`);
  }
  if (env.KV_URL && !env.ENCRYPTION_SECRET) {
    throw new Error(
      "KV_URL is set, so several instances may share this KV, but ENCRYPTION_SECRET is not. " +
        "Storage credentials and other sealed secrets are encrypted with a key derived from it; " +
        "without it each instance would use its own key file and could not read what another " +
        "sealed. Set ENCRYPTION_SECRET to the same long random value on every instance.",
    );
  }
  return {
    port,
    hostname: env.HOST || "0.0.0.0",
    dataDir,
    kvUrl: env.KV_URL || null,
    kvTimeoutMs: parseKvTimeoutMs(env.KV_TIMEOUT_MS),
    kvPath: join(dataDir, "cubby.kv"),
    adminUsername: env.ADMIN_USERNAME || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    encryptionSecret: env.ENCRYPTION_SECRET || null,
    kdfIterations: DEFAULT_KDF_ITERATIONS,
    distDir: resolve(env.CUBBY_DIST_DIR || join(import.meta.dirname ?? ".", "..", "dist")),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
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

function parseKvTimeoutMs(raw: string | undefined): number {
  const ms = Number(raw ?? 10_000);
  if (!Number.isInteger(ms) || ms < 100 || ms > 300_000) {
    throw new Error(`Invalid KV_TIMEOUT_MS "${raw}": give milliseconds from 100 to 300000`);
  }
  return ms;
}
