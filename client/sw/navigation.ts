/**
 * Navigations to app routes go to the network; when it fails, the precached document shell
 * answers (the browser then renders the route from cached scripts), and the offline page
 * answers when even that is missing. Share pages are routed by runtime_cache.ts; when neither
 * network nor cache has them, the catch handler below shows the offline page.
 */
import { NavigationRoute, registerRoute, setCatchHandler } from "workbox-routing";
import { matchPrecache } from "workbox-precaching";
import { APP_SHELL_PATH, OFFLINE_PATH } from "../../shared/pwa.ts";

/**
 * Paths a navigation can reach that are not app pages: API bytes, WebDAV, the share target,
 * the worker's decrypted downloads.
 */
const NOT_APP = [/^\/api\//, /^\/dav(\/|$)/, /^\/share-target/, /^\/e2e-download\//];

async function offlinePage(): Promise<Response> {
  return (await matchPrecache(OFFLINE_PATH)) ?? Response.error();
}

/** Registers the app-route navigation handler and the offline fallback. */
export function registerNavigation() {
  registerRoute(
    new NavigationRoute(async ({ request }) => {
      try {
        return await fetch(request);
      } catch {
        return (await matchPrecache(APP_SHELL_PATH)) ?? await offlinePage();
      }
    }, { denylist: NOT_APP }),
  );
  setCatchHandler(({ request }) =>
    request.mode === "navigate" ? offlinePage() : Promise.resolve(Response.error())
  );
}
