/**
 * The app shell around every page: skip link, announcement, top navigation, main content,
 * footer, environment switcher, the install and update cards and the toast region, inside the
 * live site config. It also turns the API client's auth-expired event into a toast plus a trip
 * to the login page. The same markup renders on the server (share pages) and on the first client
 * render; everything that reads the browser runs in effects.
 */
import { useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { TopNav } from "../components/TopNav.tsx";
import { Toaster } from "../components/Toaster.tsx";
import { toast } from "../components/toast.ts";
import { useStoredLanguage } from "../components/LanguageSwitcher.tsx";
import { AUTH_EXPIRED_EVENT, type AuthExpiredReason } from "../auth/auth_store.ts";
import { loginPathFor } from "../auth/admin_modules.ts";
import { paths } from "../../shared/app_paths.ts";
import { SiteConfigProvider } from "./site_config.ts";
import { Footer } from "../components/Footer.tsx";
import { AnnouncementBanner } from "../components/AnnouncementBanner.tsx";
import { EnvSwitcher } from "../components/EnvSwitcher.tsx";
import { useInitialData } from "./initial_data.tsx";
import { OfflinePage } from "../components/OfflinePage.tsx";
import { PwaCards } from "../pwa/PwaCards.tsx";
import { useOfflineToast } from "../pwa/online.ts";
import { QueueIndicator } from "../offline/QueueIndicator.tsx";
import { useOfflineSync } from "../offline/use_offline_sync.ts";
import { keepFocusOnNewPage } from "../lib/focus.ts";

/** True for admin screens (not the login page): they have their own chrome and no footer. */
export function isAdminPath(pathname: string): boolean {
  return (pathname === paths.admin || pathname.startsWith(paths.admin + "/")) &&
    !pathname.startsWith(paths.login);
}

/** Shows the expiry reason and goes to the login page, coming back here afterwards. */
function useAuthExpiredRedirect() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const here = location.pathname + location.search;
  useEffect(() => {
    const onExpired = (e: Event) => {
      const reason = (e as CustomEvent<AuthExpiredReason | undefined>).detail;
      toast.error(t(`errors.${reason ?? "auth_failed"}`));
      if (!here.startsWith(paths.login)) navigate(loginPathFor(here), { replace: true });
    };
    globalThis.addEventListener(AUTH_EXPIRED_EVENT, onExpired);
    return () => globalThis.removeEventListener(AUTH_EXPIRED_EVENT, onExpired);
  }, [t, navigate, here]);
}

/**
 * After an in-app navigation, a focus that was lost with the old page (a login form, a closed
 * menu, an explorer row) goes to the new page's heading instead of <body>. A focus that
 * survived (a top navigation link) stays where it is, unless it is lost in the frames after.
 */
function useFocusAfterNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    return keepFocusOnNewPage();
  }, [pathname]);
}

/**
 * The routed page, except in the offline document the service worker serves for a page it
 * cannot reach (its data says `offline: true`): the first render at any URL is then the
 * offline page, and navigating away renders routes as usual.
 */
function PageOutlet() {
  const { page } = useInitialData();
  const { key } = useLocation();
  return page?.offline === true && key === "default" ? <OfflinePage /> : <Outlet />;
}

/** The shell route element: nav, <main> with the page, footer (not on admin) and toasts. */
export function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const admin = isAdminPath(pathname);
  useStoredLanguage();
  useAuthExpiredRedirect();
  useOfflineToast();
  useOfflineSync();
  useFocusAfterNavigation();
  return (
    <SiteConfigProvider>
      <div className={`app${admin ? " app-admin" : ""}`}>
        <a href="#main" className="skip-link">{t("shell.skipToContent")}</a>
        {!admin && <AnnouncementBanner />}
        <TopNav />
        <main id="main" className="app-main" tabIndex={-1}>
          <PageOutlet />
        </main>
        {!admin && <Footer />}
        <EnvSwitcher />
        <PwaCards />
        <QueueIndicator />
        <Toaster />
      </div>
    </SiteConfigProvider>
  );
}
