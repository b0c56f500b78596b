/**
 * The known-device token the server hands out with every admin login. Sent with the next login,
 * it lets this browser's attempts be slowed only by its own failures, not by those of strangers
 * at the same address. It proves nothing by itself (the password is always checked), so it is
 * kept in localStorage across logouts; each login replaces it.
 */
export const DEVICE_TOKEN_STORAGE_KEY = "cubby.device";

/** The stored device token, or undefined. */
export function getDeviceToken(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(DEVICE_TOKEN_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Stores the device token of the latest login (ignored when the reply has none). */
export function setDeviceToken(token: unknown): void {
  if (typeof token !== "string" || !token) return;
  try {
    globalThis.localStorage?.setItem(DEVICE_TOKEN_STORAGE_KEY, token);
  } catch { /* storage unavailable: the next login is treated as a new device */ }
}
