/**
 * What a failed save says (docs/PRODUCT.md §8.5: content over the server limit, no permission to
 * update, server not responding). Used by every screen that saves an edit: the paste and file
 * edit dialogs, the explorer's text editor and the settings screens. Other failures keep their
 * own catalogue text (errorText), so a taken slug still says so.
 */
import type { TFunction } from "i18next";
import { ApiError } from "./client.ts";
import { errorText } from "./errors.ts";

/** Statuses a gateway answers for a server behind it that does not answer. */
const GATEWAY_DOWN = new Set([502, 503, 504]);

/**
 * The save-specific catalogue code for `err`, or null when the generic text applies:
 * - 413 (from Cubby or a reverse proxy's body limit) → `content_over_server_limit`;
 * - 403 → `no_update_permission`;
 * - a timeout, a gateway's 502/503/504, or a failed request while the browser is online (the
 *   server is down or unreachable) → `server_not_responding`. Offline stays `network_error`.
 */
export function saveErrorCode(err: unknown, online: boolean): string | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 413) return "content_over_server_limit";
  if (err.status === 403) return "no_update_permission";
  if (err.code === "request_timeout" || GATEWAY_DOWN.has(err.status)) {
    return "server_not_responding";
  }
  if (err.code === "network_error" && online) return "server_not_responding";
  return null;
}

/** The localised text of a failed save (see saveErrorCode), else errorText's. */
export function saveErrorText(t: TFunction, err: unknown, fallbackCode = "save_failed"): string {
  const online = globalThis.navigator?.onLine ?? true;
  const code = saveErrorCode(err, online);
  return code ? t(`errors.${code}`) : errorText(t, err, fallbackCode);
}
