/**
 * Route guards (docs/PRODUCT.md §2.2, §6). Every guard:
 * - sends a logged-out visitor to /admin/login?redirect=<path+search>;
 * - revalidates the credentials on navigation when they were never checked or were checked
 *   over 5 minutes ago, showing a spinner meanwhile (nested guards share one request);
 * - sends a user who may not see the page to their first allowed module.
 * Guards read auth through useAuth(), whose server snapshot is "logged out"; guarded routes are
 * never rendered on the server.
 */
import { type ReactNode, useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { type AuthState, useAuth } from "./auth_store.ts";
import { needsRevalidation, revalidateAuth } from "./use_auth_actions.ts";
import { allows, firstAllowedPath, loginPathFor, type ModuleRule } from "./admin_modules.ts";

type GuardProps = { children: ReactNode };

/** The spinner shown while credentials are being checked. */
function Validating() {
  const { t } = useTranslation();
  return (
    <div className="spinner spinner-page" role="status" aria-live="polite">
      {t("shell.validating")}
    </div>
  );
}

/** The shared body of every guard: login redirect, revalidation, then the permission check. */
function Guard({ children, check }: GuardProps & { check: (auth: AuthState) => boolean }) {
  const auth = useAuth();
  const location = useLocation();
  const stale = needsRevalidation(auth);
  useEffect(() => {
    if (stale) void revalidateAuth();
  }, [stale, location.pathname]);

  if (auth.authType === "none") {
    return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  }
  if (stale) return <Validating />;
  if (!check(auth)) {
    const target = firstAllowedPath(auth);
    // Never loop: the landing module is allowed by construction, but stay put if it is here.
    if (target !== location.pathname) return <Navigate to={target} replace />;
  }
  return <>{children}</>;
}

const LOGGED_IN: ModuleRule = { kind: "loggedIn" };
const ADMIN: ModuleRule = { kind: "admin" };
const MOUNT: ModuleRule = { kind: "mount" };

/** Any logged-in user (admin or API key). */
export function RequireAuth({ children }: GuardProps) {
  return <Guard check={(a) => allows(a, LOGGED_IN)}>{children}</Guard>;
}

/** The admin only; key users go to their first allowed module. */
export function RequireAdmin({ children }: GuardProps) {
  return <Guard check={(a) => allows(a, ADMIN)}>{children}</Guard>;
}

/**
 * The admin, or a key holding every bit of `bits` (and, with `mount`, any mount bit).
 * Without either prop it only requires a login.
 */
export function RequirePermission(
  { children, bits, mount }: GuardProps & { bits?: number; mount?: boolean },
) {
  const check = (a: AuthState) =>
    (bits === undefined || allows(a, { kind: "bits", bits })) && (!mount || allows(a, MOUNT)) &&
    allows(a, LOGGED_IN);
  return <Guard check={check}>{children}</Guard>;
}
