/** A logged-in admin for new browser contexts, as the app keeps it (client/auth/auth_store.ts). */
import { ALL_PERMISSIONS } from "../../../shared/permissions.ts";

/** A context's storage state holding the admin's login with `token` on the server at `url`. */
export function adminStorageState(url: string, token: string, username = "admin") {
  const auth = {
    authType: "admin",
    adminToken: token,
    apiKey: null,
    keyInfo: null,
    permissions: ALL_PERMISSIONS,
    // Never validated: the first guarded page checks the token with the server.
    lastValidated: null,
    userInfo: { id: "admin", name: username, basicPath: "/" },
  };
  return {
    cookies: [],
    origins: [{
      origin: new URL(url).origin,
      localStorage: [{ name: "cubby.auth", value: JSON.stringify(auth) }],
    }],
  };
}
