/**
 * Auth state (docs/PRODUCT.md §3.6), persisted in localStorage under `cubby.auth`.
 * A tiny external store: components read it with useAuth(); everything else calls the setters.
 */
import { useSyncExternalStore } from "react";
import { ALL_PERMISSIONS } from "../../shared/permissions.ts";
import { subscribeStored } from "../lib/storage_sync.ts";

export type AuthType = "none" | "admin" | "apikey";

export type AuthState = {
  authType: AuthType;
  adminToken: string | null;
  apiKey: string | null;
  keyInfo: { id: string; name: string; basic_path: string } | null;
  permissions: number;
  lastValidated: number | null;
  userInfo: { id: string; name: string; basicPath: string } | null;
};

export const AUTH_STORAGE_KEY = "cubby.auth";
/** Fired on window when stored credentials are cleared because they stopped working. */
export const AUTH_EXPIRED_EVENT = "cubby:auth-expired";

const EMPTY: AuthState = {
  authType: "none",
  adminToken: null,
  apiKey: null,
  keyInfo: null,
  permissions: 0,
  lastValidated: null,
  userInfo: null,
};

let state: AuthState = load();
const listeners = new Set<() => void>();

function load(): AuthState {
  try {
    const raw = globalThis.localStorage?.getItem(AUTH_STORAGE_KEY);
    return raw ? { ...EMPTY, ...JSON.parse(raw) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

function save(next: AuthState) {
  state = next;
  try {
    if (next.authType === "none") globalThis.localStorage?.removeItem(AUTH_STORAGE_KEY);
    else globalThis.localStorage?.setItem(AUTH_STORAGE_KEY, JSON.stringify(next));
  } catch { /* storage unavailable */ }
  listeners.forEach((l) => l());
}

/** The current auth state. */
export function getAuth(): AuthState {
  return state;
}

/** Stores an admin login. */
export function setAdminAuth(token: string, username: string) {
  save({
    ...EMPTY,
    authType: "admin",
    adminToken: token,
    permissions: ALL_PERMISSIONS,
    lastValidated: Date.now(),
    userInfo: { id: "admin", name: username, basicPath: "/" },
  });
}

/** Stores an API-key login. */
export function setApiKeyAuth(
  apiKey: string,
  keyInfo: { id: string; name: string; basic_path: string },
  permissions: number,
) {
  save({
    ...EMPTY,
    authType: "apikey",
    apiKey,
    keyInfo,
    permissions,
    lastValidated: Date.now(),
    userInfo: { id: keyInfo.id, name: keyInfo.name, basicPath: keyInfo.basic_path },
  });
}

/** Marks the credentials as validated now (and updates permissions for keys). */
export function markValidated(patch: Partial<AuthState> = {}) {
  save({ ...state, ...patch, lastValidated: Date.now() });
}

/** Why stored credentials stopped working: each is a catalogue code (errors.<reason>). */
export type AuthExpiredReason =
  | "session_expired"
  | "api_key_invalid"
  | "api_key_unauthorized"
  | "auth_failed";

/** Clears credentials; with a reason, fires the auth-expired event. */
export function clearAuth(reason?: AuthExpiredReason) {
  save(EMPTY);
  if (reason) globalThis.dispatchEvent?.(new CustomEvent(AUTH_EXPIRED_EVENT, { detail: reason }));
}

/** The Authorization header for the current credentials, if any. */
export function authHeader(s: AuthState = state): string | null {
  if (s.authType === "admin" && s.adminToken) return `Bearer ${s.adminToken}`;
  if (s.authType === "apikey" && s.apiKey) return `ApiKey ${s.apiKey}`;
  return null;
}

function subscribe(l: () => void) {
  return subscribeStored(listeners, AUTH_STORAGE_KEY, () => {
    state = load();
    return true;
  }, l);
}

/** React hook: the auth state, re-rendering on change. The server always sees "none". */
export function useAuth(): AuthState {
  return useSyncExternalStore(subscribe, getAuth, () => EMPTY);
}
