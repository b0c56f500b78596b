/**
 * The share pages' stand-in for react-router. The share entry (client/share_main.tsx) is built
 * with "react-router" aliased to this module (scripts/build.ts), so the components a share page
 * shares with the app (Layout, TopNav, PastePage, FilePage...) run unchanged without the 15 kB
 * router (docs/DECISIONS.md, "Share pages hydrate with Preact").
 *
 * It knows only the share routes it is given. A navigation to one of them (an owner editing the
 * link suffix) stays in the page with its history state, as with react-router; any other
 * target is a full navigation, where the server answers with the app's own entry. It exports
 * only what those components import; a new import fails the share build ("No matching export").
 */
import {
  type AnchorHTMLAttributes,
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useSyncExternalStore,
} from "react";

/** A share route: a path pattern whose groups are the params named in `params`. */
export type ShareRoute = { pattern: RegExp; params: string[]; element: ReactNode };

/** The current location, shaped like react-router's. */
export type Location = {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** "default" for the document's own entry, as in react-router. */
  key: string;
};

type NavigateOptions = { replace?: boolean; state?: unknown };
type To = string;

/** What a same-document history entry of ours stores (react-router's shape: usr and key). */
type HistoryState = { usr?: unknown; key?: string } | null;

function readLocation(): Location {
  const { pathname, search, hash } = globalThis.location;
  const state = globalThis.history.state as HistoryState;
  return { pathname, search, hash, state: state?.usr ?? null, key: state?.key ?? "default" };
}

let current: Location | null = null;
const listeners = new Set<() => void>();

function snapshot(): Location {
  return current ??= readLocation();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) globalThis.addEventListener("popstate", onPopState);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) globalThis.removeEventListener("popstate", onPopState);
  };
}

function onPopState() {
  current = readLocation();
  for (const l of listeners) l();
}

const RoutesContext = createContext<ShareRoute[]>([]);
const ParamsContext = createContext<Record<string, string>>({});

/** The route matching a path, with its decoded params, or null. */
export function matchShareRoute(
  routes: ShareRoute[],
  pathname: string,
): { route: ShareRoute; params: Record<string, string> } | null {
  for (const route of routes) {
    const m = pathname.match(route.pattern);
    if (!m) continue;
    try {
      const params = Object.fromEntries(
        route.params.map((name, i) => [name, decodeURIComponent(m[i + 1] ?? "")]),
      );
      return { route, params };
    } catch {
      return null; // a malformed escape: not a route of ours
    }
  }
  return null;
}

/** Provides the share routes to Outlet and navigation. */
export function ShareRouter({ routes, children }: { routes: ShareRoute[]; children: ReactNode }) {
  return <RoutesContext.Provider value={routes}>{children}</RoutesContext.Provider>;
}

/** The current location; re-renders on back/forward and on in-page navigations. */
export function useLocation(): Location {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The params of the matched share route. */
export function useParams(): Record<string, string | undefined> {
  return useContext(ParamsContext);
}

/**
 * Navigates: in the page (history entry with state) to a share route, else a full navigation.
 * A number goes back or forward in history.
 */
export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  const routes = useContext(RoutesContext);
  return useCallback((to: To | number, options: NavigateOptions = {}) => {
    if (typeof to === "number") {
      globalThis.history.go(to);
      return;
    }
    const url = new URL(to, globalThis.location.href);
    const inPage = url.origin === globalThis.location.origin &&
      matchShareRoute(routes, url.pathname) !== null;
    if (!inPage) {
      if (options.replace) globalThis.location.replace(url.href);
      else globalThis.location.assign(url.href);
      return;
    }
    const entry: HistoryState = {
      usr: options.state ?? null,
      // Not crypto.randomUUID: it exists only in secure contexts, and a key needs no secrecy.
      key: Math.random().toString(36).slice(2, 10),
    };
    const href = url.pathname + url.search + url.hash;
    if (options.replace) globalThis.history.replaceState(entry, "", href);
    else globalThis.history.pushState(entry, "", href);
    current = readLocation();
    for (const l of listeners) l();
  }, [routes]);
}

/** The element of the share route matching the current path; throws for any other path. */
export function Outlet() {
  const routes = useContext(RoutesContext);
  const { pathname } = useLocation();
  const match = matchShareRoute(routes, pathname);
  if (!match) throw new Error(`share pages: no share route matches ${pathname}`);
  return <ParamsContext.Provider value={match.params}>{match.route.element}
  </ParamsContext.Provider>;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: To;
  replace?: boolean;
  state?: unknown;
};

/** True for a plain left click that the page may handle itself. */
function isPlainClick(e: MouseEvent<HTMLAnchorElement>, target?: string): boolean {
  return e.button === 0 && !e.metaKey && !e.altKey && !e.ctrlKey && !e.shiftKey &&
    (!target || target === "_self");
}

/**
 * An <a> with react-router's markup (`data-discover`, which the server renders): a plain click
 * navigates through useNavigate, so a share route stays in the page and anything else loads.
 */
export function Link({ to, replace, state, onClick, ...rest }: LinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={to}
      data-discover="true"
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || !isPlainClick(e, rest.target)) return;
        e.preventDefault();
        navigate(to, { replace, state });
      }}
    />
  );
}

type NavLinkProps = Omit<LinkProps, "className"> & {
  end?: boolean;
  className?: string | ((s: { isActive: boolean }) => string | undefined);
};

/** A Link marked `active` (class and aria-current) while its path is the current one. */
export function NavLink({ end, className, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const to = rest.to.replace(/\/+$/, "") || "/";
  const isActive = pathname === to || pathname === to + "/" ||
    (!end && to !== "/" && pathname.startsWith(to + "/"));
  const base = typeof className === "function" ? className({ isActive }) : className;
  const classes = typeof className === "function"
    ? base
    : [base, isActive ? "active" : ""].filter(Boolean).join(" ") || undefined;
  return <Link {...rest} className={classes} aria-current={isActive ? "page" : undefined} />;
}
