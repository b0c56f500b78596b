/**
 * The mount explorer (`/mount-explorer/{path...}`, docs/PRODUCT.md §2.1): the path comes from the
 * URL; a key user opening a path outside their base path is sent to their base path (the server
 * enforces the same rule on every call).
 */
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { usePageTitle } from "../../app/use_page_title.ts";
import { useAuth } from "../../auth/auth_store.ts";
import { baseRedirect, EXPLORER_ROOT, explorerHref, pathFromPathname } from "./explorer_paths.ts";
import { Explorer } from "./Explorer.tsx";

export default function MountExplorerPage() {
  const { t } = useTranslation();
  usePageTitle("pageTitle.mountExplorer");
  const location = useLocation();
  const auth = useAuth();
  const path = pathFromPathname(location.pathname.replace(/\/+$/, "") || "/");
  if (path === null) return <Navigate to={EXPLORER_ROOT} replace />;
  if (auth.authType === "apikey") {
    const to = baseRedirect(path, auth.keyInfo?.basic_path ?? "/");
    if (to !== null) return <Navigate to={explorerHref(to)} replace />;
  }
  return (
    <section className="page explorer-page">
      <header className="page-header explorer-header">
        <h1>{t("explorer.title")}</h1>
      </header>
      <Explorer path={path} />
    </section>
  );
}
