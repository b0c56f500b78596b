/**
 * The top navigation (docs/PRODUCT.md §2.2): home, upload, mount explorer, admin, the source repository
 * (the `site_source_url` setting; hidden while it is empty), the language switcher, the theme
 * toggle and an offline badge while offline. On narrow screens the links fold into a menu
 * button. Links a logged-in user cannot use are left out. It renders the same markup on the
 * server and on the first client render (useAuth reads "logged out" while hydrating).
 */
import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { paths } from "../../shared/app_paths.ts";
import { useInitialData } from "../app/initial_data.tsx";
import { useSiteConfig } from "../app/site_config.ts";
import { LanguageSwitcher } from "./LanguageSwitcher.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { OfflineBadge } from "../pwa/OfflineBadge.tsx";
import { LineIcon } from "./LineIcon.tsx";
import { NewTabLink } from "./NewTabLink.tsx";
import { type AuthState, useAuth } from "../auth/auth_store.ts";
import { hasMountAccess, hasPermission, Permission } from "../../shared/permissions.ts";

/**
 * The main links; `allowed` says whether a logged-in user may use the page. A visitor sees
 * every link (the guarded ones lead to the login page); a user never sees one that would only
 * send them back to their own module.
 */
const LINKS: {
  to: string;
  key: string;
  end: boolean;
  allowed?: (auth: AuthState) => boolean;
}[] = [
  { to: paths.home, key: "nav.home", end: true },
  {
    to: paths.upload,
    key: "nav.upload",
    end: false,
    allowed: (a) => hasPermission(a.permissions, Permission.FILE_SHARE),
  },
  {
    to: paths.mountExplorer,
    key: "nav.mountExplorer",
    end: false,
    allowed: (a) => hasMountAccess(a.permissions),
  },
  { to: paths.admin, key: "nav.admin", end: false },
];

function Logo() {
  return (
    <svg width="26" height="26" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="var(--color-primary)" />
      <path d="M18 24h28v22a4 4 0 0 1-4 4H22a4 4 0 0 1-4-4z" fill="#fff" />
      <path d="M14 18h36v8H14z" fill="#bfdbfe" />
    </svg>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <LineIcon size={20}>
      {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 6h16M4 12h16M4 18h16" />}
    </LineIcon>
  );
}

function SourceIcon() {
  return (
    <LineIcon size={18} roundJoins>
      <path d="M8 6l-6 6 6 6M16 6l6 6-6 6" />
    </LineIcon>
  );
}

/** The site header with the main links and the language and theme controls. */
export function TopNav() {
  const { t } = useTranslation();
  const { siteTitle } = useInitialData();
  const { sourceUrl } = useSiteConfig();
  const { pathname } = useLocation();
  const auth = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const links = LINKS.filter((l) => auth.authType === "none" || !l.allowed || l.allowed(auth));

  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header className="topnav">
      <div className="topnav-inner">
        <Link to={paths.home} className="topnav-brand">
          <Logo />
          <span className="topnav-title">{siteTitle}</span>
        </Link>
        <button
          type="button"
          className="btn btn-ghost btn-icon topnav-menu-button"
          aria-expanded={menuOpen}
          aria-controls="topnav-links"
          aria-label={t("shell.menu")}
          onClick={() => setMenuOpen((v) => !v)}
        >
          <MenuIcon open={menuOpen} />
        </button>
        <nav
          id="topnav-links"
          className={`topnav-nav${menuOpen ? " open" : ""}`}
          aria-label={t("nav.mainMenu")}
        >
          <ul className="topnav-links">
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.end} className="topnav-link">
                  {t(l.key)}
                </NavLink>
              </li>
            ))}
            {sourceUrl && (
              <li>
                <NewTabLink
                  href={sourceUrl}
                  className="topnav-link topnav-source"
                  aria-label={t("shell.sourceLink")}
                >
                  <SourceIcon />
                  <span aria-hidden="true">{t("nav.source")}</span>
                </NewTabLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="topnav-tools">
          <OfflineBadge />
          <LanguageSwitcher />
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
