/**
 * Logging in (password or API key), logging out and revalidating the stored credentials
 * (docs/PRODUCT.md §4.1, §7.1). The plain functions work anywhere; the
 * hook adds navigation to the login page after logout.
 */
import { useCallback, useMemo } from "react";
import { useNavigate } from "react-router";
import { api, ApiError } from "../api/client.ts";
import {
  type AuthState,
  clearAuth,
  getAuth,
  markValidated,
  setAdminAuth,
  setApiKeyAuth,
} from "./auth_store.ts";
import { AUTH_REVALIDATE_MS } from "../../shared/constants.ts";
import { getDeviceToken, setDeviceToken } from "./device_token.ts";
import { clearUserCaches } from "../pwa/worker_state.ts";
import { paths } from "../../shared/app_paths.ts";
import { type ApiKeyTestReply, checkKeyReply } from "./key_reply.ts";

export type { ApiKeyTestReply };

type LoginReply = {
  token?: string;
  username?: string;
  expires_at?: string;
  device_token?: string;
};

/**
 * Logs in as the admin, presenting this browser's device token and keeping the new one.
 * Throws ApiError: the server's (invalid_credentials, too_many_requests, network...) or
 * `login_missing_token` when the reply holds no token.
 */
export async function loginWithPassword(username: string, password: string): Promise<void> {
  const data = await api<LoginReply | null>("/admin/login", {
    method: "POST",
    body: { username, password, device_token: getDeviceToken() },
    anonymous: true,
  });
  if (!data?.token) throw new ApiError("login_missing_token", 200, null);
  setDeviceToken(data.device_token);
  setAdminAuth(data.token, data.username ?? username);
}

/**
 * Logs in with an API key by asking the server what the key may do. Throws ApiError
 * `api_key_verify_failed` when the key is refused, `permission_info_failed` when the reply has
 * no readable permissions, `api_key_unauthorized` when the key grants nothing (checkKeyReply),
 * or the transport error (network, timeout, rate limit) otherwise.
 */
export async function loginWithApiKey(key: string): Promise<void> {
  let data: ApiKeyTestReply | null;
  try {
    data = await api<ApiKeyTestReply | null>("/test/api-key", {
      headers: { Authorization: `ApiKey ${key}` },
      anonymous: true,
    });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      throw new ApiError("api_key_verify_failed", err.status, null);
    }
    throw err;
  }
  const check = checkKeyReply(data);
  if (!check.ok) throw new ApiError(check.code, 200, null);
  setApiKeyAuth(key, check.keyInfo, check.mask);
}

/**
 * Ends the session: revokes an admin token on the server (best effort), then clears the stored
 * credentials. Never throws.
 */
export async function logout(): Promise<void> {
  const { authType, adminToken } = getAuth();
  if (authType === "admin" && adminToken) {
    try {
      // Sent as an explicit header so an already-dead session does not fire "session expired".
      await api("/admin/logout", {
        method: "POST",
        anonymous: true,
        headers: { Authorization: `Bearer ${adminToken}` },
        timeoutMs: 5_000,
      });
    } catch { /* the token is forgotten below either way */ }
  }
  clearAuth();
  // Share pages read while logged in stay on this device no longer than the session.
  await clearUserCaches().catch(() => {});
  // Offline copies of shares, explorer listings and searches, and writes queued with these
  // credentials belong to this identity only.
  await import("../offline/db.ts").then((m) => m.clearIdentityData()).catch(() => {});
}

/** True when the credentials should be checked again (never checked, or over 5 minutes ago). */
export function needsRevalidation(auth: AuthState, now = Date.now()): boolean {
  if (auth.authType === "none") return false;
  return auth.lastValidated === null || now - auth.lastValidated > AUTH_REVALIDATE_MS;
}

let inFlight: Promise<void> | null = null;

/**
 * Checks the stored credentials with the server and refreshes what it says (username, key
 * permissions and base path). Expired credentials are cleared by the API client, which fires
 * the auth-expired event; any other refusal (a 401/403 that is not an expiry, a reply that does
 * not confirm the credentials) clears them with `auth_failed`, and a key that no longer grants
 * anything with `api_key_unauthorized`. When the server cannot be reached the credentials are
 * kept and marked checked, so the app stays usable offline. Concurrent calls share one request.
 * Never throws.
 */
export function revalidateAuth(): Promise<void> {
  inFlight ??= (async () => {
    const before = getAuth();
    try {
      if (before.authType === "admin") {
        const data = await api<{ valid?: boolean; username?: string | null } | null>(
          "/test/admin-token",
        );
        if (getAuth() !== before) return;
        if (data?.valid !== true) return clearAuth("auth_failed");
        const name = data?.username ?? before.userInfo?.name ?? "admin";
        markValidated({ userInfo: { id: "admin", name, basicPath: "/" } });
      } else if (before.authType === "apikey") {
        const data = await api<ApiKeyTestReply>("/test/api-key");
        if (getAuth() !== before) return;
        const check = checkKeyReply(data);
        if (!check.ok) {
          return clearAuth(
            check.code === "api_key_unauthorized" ? "api_key_unauthorized" : "auth_failed",
          );
        }
        const info = check.keyInfo;
        markValidated({
          permissions: check.mask,
          keyInfo: info,
          userInfo: { id: info.id, name: info.name, basicPath: info.basic_path },
        });
      }
    } catch (err) {
      if (getAuth() !== before) return; // cleared as expired, or changed meanwhile
      const refused = err instanceof ApiError && (err.status === 401 || err.status === 403);
      if (refused) clearAuth("auth_failed");
      else markValidated();
    }
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** React hook: the auth actions, with logout leading to the login page. */
export function useAuthActions() {
  const navigate = useNavigate();
  const logoutAndLeave = useCallback(async () => {
    await logout();
    navigate(paths.login, { replace: true });
  }, [navigate]);
  return useMemo(
    () => ({ loginWithPassword, loginWithApiKey, logout: logoutAndLeave, revalidateAuth }),
    [logoutAndLeave],
  );
}
