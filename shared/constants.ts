/** Business constants from docs/PRODUCT.md §9.1, shared by server and client. */

export const APP_VERSION = "0.8.1";
export const APP_NAME = "Cubby";

export const LANGUAGES = ["zh-CN", "en-US"] as const;
export type Language = typeof LANGUAGES[number];
export const FALLBACK_LANGUAGE: Language = "zh-CN";

export const REQUEST_TIMEOUT_MS = 30_000;
export const RAW_UPLOAD_TIMEOUT_MS = 5 * 60_000;
export const AUTH_REVALIDATE_MS = 5 * 60_000;
export const SITE_CONFIG_CACHE_MS = 24 * 60 * 60_000;

export const DEFAULT_PASTE_LIST_LIMIT = 10;
export const DEFAULT_FILE_LIST_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 50;
export const SEARCH_MIN_LENGTH = 2;

/** Editor content limit: 10 MB, counted in UTF-8 bytes. */
export const MAX_PASTE_BYTES = 10 * 1024 * 1024;
export const MAX_SLUG_LENGTH = 50;
/**
 * The shortest custom API key: 32 characters of 64 kinds carry 192 bits, as much as a generated
 * key (`cb_` and 32 base62 characters, about 190 bits), so no key can be guessed and none needs
 * a lockout. Keys made before this floor keep working.
 */
export const CUSTOM_KEY_MIN_LENGTH = 32;
export const RANDOM_SLUG_LENGTH = 6;
export const MOUNT_NAME_MAX = 50;
export const MOUNT_CACHE_TTL_MAX = 86_400;
export const RECENT_UPLOADS_SHOWN = 3;

export const MULTIPART_PART_SIZE = 5 * 1024 * 1024;
export const MULTIPART_CONCURRENCY = 3;
export const MULTIPART_RETRIES = 3;
export const MULTIPART_PART_TIMEOUT_MS = 5 * 60_000;
export const MAX_UPLOAD_SIZE_FALLBACK_MB = 100;

export const SESSION_TTL_MS = 24 * 60 * 60_000;

/** Share expiry presets in milliseconds; null means never. */
export const SHARE_EXPIRY_PRESETS = [
  { id: "1h", ms: 60 * 60_000 },
  { id: "1d", ms: 24 * 60 * 60_000 },
  { id: "7d", ms: 7 * 24 * 60 * 60_000 },
  { id: "30d", ms: 30 * 24 * 60 * 60_000 },
  { id: "never", ms: null },
] as const;

/** API key expiry presets in days; null means never, "custom" asks for a number of days. */
export const KEY_EXPIRY_PRESETS = ["1d", "7d", "30d", "never", "custom"] as const;

/**
 * First path segments the client and server use themselves; a custom slug may not take them,
 * and neither may a mount path.
 */
export const RESERVED_SLUGS = [
  "api",
  "admin",
  "paste",
  "file",
  "upload",
  "mount-explorer",
  "dav",
  "static",
  "assets",
  "sw.js",
  "manifest.webmanifest",
  "offline",
  "favicon.ico",
  "login",
  "raw",
  "p",
  "health",
  "version",
] as const;
