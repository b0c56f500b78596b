/**
 * Runtime caching. Hashed assets are cache-first: their URL changes with their content. Open
 * share pages (/paste/{slug}, /file/{slug}) and their public API reads are network-first with
 * a 7-day cache fallback, but only replies the server marks with CACHEABLE_HEADER are stored:
 * a share with a password or a view limit never is, so a cache can never stand in for a
 * password or a counted view. A reply that is not cacheable also evicts an older cached copy
 * (a share that gained a password stops being readable offline), and a copy of an expiring
 * share is not used past its expiry. Requests that carry credentials are never cached. A copy
 * answered because the network failed is marked as one (offline_copy.ts).
 */
import { registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { ExpirationPlugin } from "workbox-expiration";
import type { WorkboxPlugin } from "workbox-core";
import {
  CACHE_EXPIRES_HEADER,
  CACHEABLE_HEADER,
  OFFLINE_CACHE_MAX_AGE_S,
  SW_CACHES,
} from "../../shared/pwa.ts";
import { markOfflineCopy, stampSaved } from "./offline_copy.ts";

/** Share pages and the public reads that belong to them. */
const SHARE_PATHS = [
  /^\/paste\/[^/]+\/?$/,
  /^\/file\/[^/]+\/?$/,
  /^\/api\/paste\/[^/]+$/,
  /^\/api\/public\/files\/[^/]+$/,
];

/** True when a request may be answered from (or stored in) the share cache. */
export function isShareRead(url: URL, request: Request): boolean {
  return request.method === "GET" && url.origin === location.origin &&
    SHARE_PATHS.some((p) => p.test(url.pathname));
}

/** Stores only opted-in replies to credential-free requests; evicts the entry otherwise. */
const optInOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ request, response }) => {
    const cacheable = response.status === 200 && response.headers.get(CACHEABLE_HEADER) === "1" &&
      !request.headers.has("Authorization");
    if (cacheable) return stampSaved(response);
    const cache = await caches.open(SW_CACHES.shares);
    await cache.delete(request);
    return null;
  },
  // Never answer a credentialed request from the cache, nor with a share past its expiry.
  cachedResponseWillBeUsed: async ({ request, cachedResponse }) => {
    if (!cachedResponse || request.headers.has("Authorization")) return null;
    const expires = Date.parse(cachedResponse.headers.get(CACHE_EXPIRES_HEADER) ?? "");
    if (expires <= Date.now()) {
      await (await caches.open(SW_CACHES.shares)).delete(request);
      return null;
    }
    return await markOfflineCopy(cachedResponse);
  },
};

/** Registers the asset and share routes. */
export function registerRuntimeCaching() {
  registerRoute(
    ({ url, request }) =>
      request.method === "GET" && url.origin === location.origin &&
      (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/")),
    new CacheFirst({
      cacheName: SW_CACHES.assets,
      plugins: [
        { cacheWillUpdate: ({ response }) => Promise.resolve(response.ok ? response : null) },
        new ExpirationPlugin({ maxEntries: 300, purgeOnQuotaError: true }),
      ],
    }),
  );
  registerRoute(
    ({ url, request }) => isShareRead(url, request),
    new NetworkFirst({
      cacheName: SW_CACHES.shares,
      plugins: [
        optInOnly,
        new ExpirationPlugin({
          maxAgeSeconds: OFFLINE_CACHE_MAX_AGE_S,
          maxEntries: 200,
          purgeOnQuotaError: true,
        }),
      ],
    }),
  );
}
