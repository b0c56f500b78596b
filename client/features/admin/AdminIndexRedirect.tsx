/** Exactly /admin: go to the first module this user may use (docs/PRODUCT.md §2.2). */
import { Navigate } from "react-router";
import { useAuth } from "../../auth/auth_store.ts";
import { firstAllowedPath } from "../../auth/admin_modules.ts";

/** Redirects to the user's landing module. */
export function AdminIndexRedirect() {
  const auth = useAuth();
  return <Navigate to={firstAllowedPath(auth)} replace />;
}
