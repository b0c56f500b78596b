/**
 * Constants of the installable offline app (docs/PRODUCT.md §9.1) and the names the page and the
 * service worker share: message types, cache names and the header that lets a reply be cached.
 */

/** A dismissed install card stays hidden this long. */
export const INSTALL_PROMPT_SNOOZE_MS = 7 * 24 * 60 * 60 * 1000;
/** How often the page checks whether the install card can be shown. */
export const INSTALL_CHECK_INTERVAL_MS = 5000;
/** The "you are offline" toast hides itself after this long. */
export const OFFLINE_TOAST_MS = 3000;
/** Cached share pages and their API reads expire after this many seconds. */
export const OFFLINE_CACHE_MAX_AGE_S = 7 * 24 * 60 * 60;
/** After accepting an update the page reloads this long after the new worker takes over. */
export const UPDATE_RELOAD_DELAY_MS = 1000;

/**
 * The server sets this header to "1" on a reply that holds nothing but an open share (no
 * password, no view limit) read without credentials. The service worker caches only such
 * replies; every other reply passes through uncached (docs/DECISIONS.md).
 */
export const CACHEABLE_HEADER = "X-Cubby-Cacheable";
/** On a cacheable reply of an expiring share: its expiry (ISO 8601); no cached use after it. */
export const CACHE_EXPIRES_HEADER = "X-Cubby-Expires";

/** Set by the service worker when it kept a reply: when it was saved (ms since the epoch). */
export const SAVED_AT_HEADER = "X-Cubby-Saved-At";
/**
 * Set by the service worker on a reply it answers from its cache because the network failed:
 * when the copy was saved (ms since the epoch). A document answered so also carries it as
 * `<html data-offline-copy>`, which the page reads after hydration.
 */
export const OFFLINE_COPY_HEADER = "X-Cubby-Offline-Copy";

/** The URL of the document shell the service worker precaches for offline app routes. */
export const APP_SHELL_PATH = "/app-shell";
/** The manifest's share_target action: the OS posts shared text, links and files here. */
export const SHARE_TARGET_PATH = "/share-target";
/** The offline fallback page (docs/PRODUCT.md §2.1). */
export const OFFLINE_PATH = "/offline";

/** Runtime caches of the service worker (the precache has workbox's own name). */
export const SW_CACHES = {
  /** Hashed assets outside the precache (lazy chunks), cache-first. */
  assets: "cubby-assets",
  /** Open share pages and their public API reads, network-first, 7 days. */
  shares: "cubby-shares",
} as const;

/** Messages the page sends to the service worker. */
export const SW_MESSAGES = {
  /** Activate a waiting worker now. */
  skipWaiting: "SKIP_WAITING",
  /** Answers with the build id of the worker: `{build}`. */
  getVersion: "GET_VERSION",
  /** Hands an end-to-end encrypted download to the worker (key in memory only): `{ok}`. */
  e2eDownload: "E2E_DOWNLOAD",
  /** Asks how a handed-over download goes: `{state, loaded, total, reason?}`. */
  e2eDownloadStatus: "E2E_DOWNLOAD_STATUS",
} as const;

/**
 * The worker answers navigations under this path with a decrypted download it was handed
 * (client/sw/e2e_download.ts); the server never sees such a request.
 */
export const E2E_DOWNLOAD_PATH = "/e2e-download/";

/** The brand colour of the browser UI (theme-color) and of the maskable icon's background. */
export const THEME_COLOR = "#2563eb";
/** The background of the maskable icon. */
export const ICON_BACKGROUND = THEME_COLOR;
/** The splash-screen background of the installed app. */
export const BACKGROUND_COLOR = "#ffffff";

/** The manifest's PNG icons, made by scripts/build_icons.ts from static/favicon.svg. */
export const MANIFEST_ICONS = [
  { src: "/icons/icon-192.png", size: 192, purpose: "any" },
  { src: "/icons/icon-512.png", size: 512, purpose: "any" },
  { src: "/icons/maskable-512.png", size: 512, purpose: "maskable" },
] as const;
/**
 * The icon iOS puts on the home screen (apple-touch-icon): opaque, since iOS fills
 * transparent corners with black, so it is drawn like the maskable one.
 */
export const APPLE_TOUCH_ICON = { src: "/icons/apple-touch-icon.png", size: 180 } as const;
