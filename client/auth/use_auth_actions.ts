/**
 * Logging in (password or API key), logging out and revalidating the stored credentials
 * (spec §4 "Auth", §7 "Authentication and account"). The plain functions work anywhere; the
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
import { permissionsToMask } from "../../shared/permissions.ts";
import { clearUserCaches } from "../pwa/worker_state.ts";
import { clearIdentityData } from "../offline/db.ts";
import { paths } from "../routes.ts";

type LoginReply = { token?: string; username?: string; expires_at?: string };

/** What GET /test/api-key answers (server/routes/auth.ts). */
export type ApiKeyTestReply = {
  name: string;
  permissions: Record<string, boolean>;
  permission_mask?: number;
  key_info: { id: string; name: string; basic_path: string };
  expires_at: string | null;
  is_guest: boolean;
};

/** The key's permission bitmask from a /test/api-key reply. */
function maskOf(reply: ApiKeyTestReply): number {
  return typeof reply.permission_mask === "number"
    ? reply.permission_mask
    : permissionsToMask(reply.permissions ?? {});
}

/**
 * Logs in as the admin. Throws ApiError: the server's (invalid_credentials, too_many_requests,
 * network...) or `login_missing_token` when the reply holds no token.
 */
export async function loginWithPassword(username: string, password: string): Promise<void> {
  const data = await api<LoginReply | null>("/admin/login", {
    method: "POST",
    body: { username, password },
    anonymous: true,
  });
  if (!data?.token) throw new ApiError("login_missing_token", 200, null);
  setAdminAuth(data.token, data.username ?? username);
}

/**
 * Logs in with an API key by asking the server what the key may do. Throws ApiError
 * `api_key_verify_failed` when the key is refused (or the reply is unusable), or the transport
 * error (network, timeout, rate limit) otherwise.
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
  if (!data?.key_info) throw new ApiError("api_key_verify_failed", 200, null);
  setApiKeyAuth(key, data.key_info, maskOf(data));
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
  // Explorer listings and writes queued with these credentials belong to this identity only.
  await clearIdentityData().catch(() => {});
}

/** True when the credentials should be checked again (never checked, or over 5 minutes ago). */
export function needsRevalidation(auth: AuthState, now = Date.now()): boolean {
  if (auth.authType === "none") return false;
  return auth.lastValidated === null || now - auth.lastValidated > AUTH_REVALIDATE_MS;
}

let inFlight: Promise<void> | null = null;

/**
 * Checks the stored credentials with the server and refreshes what it says (username, key
 * permissions and base path). A 401 clears them (the API client does that and fires the
 * auth-expired event). When the server cannot be reached the credentials are kept and marked
 * checked, so the app stays usable offline. Concurrent calls share one request. Never throws.
 */
export function revalidateAuth(): Promise<void> {
  inFlight ??= (async () => {
    const before = getAuth();
    try {
      if (before.authType === "admin") {
        const data = await api<{ username?: string | null } | null>("/test/admin-token");
        if (getAuth() !== before) return;
        const name = data?.username ?? before.userInfo?.name ?? "admin";
        markValidated({ userInfo: { id: "admin", name, basicPath: "/" } });
      } else if (before.authType === "apikey") {
        const data = await api<ApiKeyTestReply>("/test/api-key");
        if (getAuth() !== before) return;
        const info = data.key_info ?? before.keyInfo;
        markValidated({
          permissions: maskOf(data),
          keyInfo: info,
          userInfo: info
            ? { id: info.id, name: info.name, basicPath: info.basic_path }
            : before.userInfo,
        });
      }
    } catch (err) {
      const cleared = err instanceof ApiError && err.status === 401 &&
        getAuth().authType === "none";
      if (!cleared && getAuth() === before) markValidated();
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
