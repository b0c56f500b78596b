/**
 * The service worker entry, bundled by scripts/build.ts into dist/sw.js. It composes small
 * modules, one concern each: the precache of the app shell, runtime caching of assets and open
 * shares, navigation fallbacks and the page's messages. Other concerns (offline queue sync,
 * share target) add their own module and are registered here.
 */
import { clientsClaim } from "workbox-core";
import { installPrecache } from "./precache.ts";
import { registerRuntimeCaching } from "./runtime_cache.ts";
import { registerNavigation } from "./navigation.ts";
import { listenForMessages } from "./messages.ts";
import { listenForSync } from "./sync.ts";
import { registerShareTarget } from "./share_target.ts";
import { registerE2EDownloads } from "./e2e_download.ts";

installPrecache();
registerRuntimeCaching();
// Before the navigation route: a decrypted download is answered here, never by the network.
registerE2EDownloads();
registerNavigation();
listenForMessages();
listenForSync();
registerShareTarget();
// The first worker takes control of open pages at once, so the first visit is already cached.
clientsClaim();
