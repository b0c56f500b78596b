/**
 * The admin area (docs/PRODUCT.md §2.3, §6): a collapsible sidebar listing the modules this user
 * may use and the current module beside it. The sidebar starts open on wide screens and closed on
 * narrow ones; on narrow screens it closes again after each navigation.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { NavLink, Outlet, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../auth/auth_store.ts";
import { useAuthActions } from "../../auth/use_auth_actions.ts";
import { toast } from "../../components/toast.ts";
import { LineIcon } from "../../components/LineIcon.tsx";
import { type AdminModule, visibleModules } from "../../auth/admin_modules.ts";

const WIDE_QUERY = "(min-width: 900px)";

function subscribeWide(onChange: () => void) {
  const query = globalThis.matchMedia?.(WIDE_QUERY);
  query?.addEventListener("change", onChange);
  return () => query?.removeEventListener("change", onChange);
}

/** True on wide screens (and on the server). */
function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribeWide,
    () => globalThis.matchMedia?.(WIDE_QUERY).matches ?? true,
    () => true,
  );
}

function Chevron({ open }: { open: boolean }) {
  return (
    <LineIcon size={16} className={`chevron${open ? " chevron-open" : ""}`}>
      <path d="M9 6l6 6-6 6" />
    </LineIcon>
  );
}

function SidebarIcon() {
  return (
    <LineIcon size={20}>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M9 4v16" />
    </LineIcon>
  );
}

function ModuleLink({ module }: { module: AdminModule }) {
  const { t } = useTranslation();
  return (
    <li>
      <NavLink to={module.path} className="admin-nav-link">
        {t(module.labelKey)}
      </NavLink>
    </li>
  );
}

/** The admin frame: toolbar, sidebar and the current module. */
export default function AdminLayout() {
  const { t } = useTranslation();
  const auth = useAuth();
  const { logout } = useAuthActions();
  const { pathname } = useLocation();
  const wide = useWideScreen();
  /** null: follow the screen width; otherwise what the user chose. */
  const [choice, setChoice] = useState<boolean | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(true);
  const [loggingOut, setLoggingOut] = useState(false);
  const expanded = choice ?? wide;

  useEffect(() => {
    if (!wide) setChoice(null);
  }, [pathname, wide]);

  const modules = visibleModules(auth);
  const main = modules.filter((m) => !m.group);
  const settings = modules.filter((m) => m.group === "settings");
  const settingsActive = settings.some((m) => pathname.startsWith(m.path));

  const onLogout = async () => {
    setLoggingOut(true);
    await logout();
    toast.success(t("adminNav.loggedOut"));
  };

  return (
    <div className={`admin-layout${expanded ? " admin-sidebar-open" : ""}`}>
      <div className="admin-toolbar">
        <button
          type="button"
          className="btn btn-ghost admin-sidebar-toggle"
          aria-expanded={expanded}
          aria-controls="admin-sidebar"
          onClick={() => setChoice(!expanded)}
        >
          <SidebarIcon />
          <span>{t("adminNav.toggle")}</span>
        </button>
        {auth.userInfo && (
          <p className="admin-user">
            <span className="sr-only">{t("adminNav.signedInAs")}</span>
            <strong>{auth.userInfo.name}</strong>
            <span className="badge">{t(`adminNav.role.${auth.authType}`)}</span>
          </p>
        )}
      </div>
      <div className="admin-body">
        <aside id="admin-sidebar" className="admin-sidebar" hidden={!expanded}>
          <nav aria-label={t("adminNav.label")}>
            <ul className="admin-nav">
              {main.map((m) => <ModuleLink key={m.id} module={m} />)}
              {settings.length > 0 && (
                <li className="admin-nav-group">
                  <button
                    type="button"
                    className={`admin-nav-group-toggle${settingsActive ? " active" : ""}`}
                    aria-expanded={settingsOpen}
                    aria-controls="admin-nav-settings"
                    onClick={() => setSettingsOpen((v) => !v)}
                  >
                    <span>{t("adminNav.settings")}</span>
                    <Chevron open={settingsOpen} />
                  </button>
                  <ul id="admin-nav-settings" className="admin-nav-sub" hidden={!settingsOpen}>
                    {settings.map((m) => <ModuleLink key={m.id} module={m} />)}
                  </ul>
                </li>
              )}
            </ul>
            <button
              type="button"
              className="btn admin-logout"
              onClick={onLogout}
              disabled={loggingOut}
            >
              {t("adminNav.logout")}
            </button>
          </nav>
        </aside>
        <div className="admin-content">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
