/**
 * What the share pages (FilePage.tsx, PastePage.tsx) have in common around their state: one
 * screen per slug, whose first state comes from what an in-app navigation handed over or from
 * the server's page data. That page data describes the document's first URL only, so once a
 * share screen has mounted, later screens (in-app navigation) fetch instead; likewise the
 * document's offline-copy mark (offline/share_copies.ts) is for its first screen only.
 */
import {
  type ComponentType,
  type Dispatch,
  type RefObject,
  type SetStateAction,
  useEffect,
  useRef,
  useState,
} from "react";
import { useLocation, useParams } from "react-router";
import { useInitialData } from "../app/initial_data.tsx";
import { usePageTitle } from "../app/use_page_title.ts";
import { forgetDocumentCopy } from "../offline/share_copies.ts";
import { useIsClient } from "./ShareFacts.tsx";

/** A share page's route: titles the page and mounts a fresh screen for each slug. */
export function ShareRoute(
  { titleKey, screen: Screen }: {
    titleKey: string;
    screen: ComponentType<{ slug: string }>;
  },
) {
  const { slug = "" } = useParams();
  usePageTitle(titleKey);
  return <Screen key={slug} slug={slug} />;
}

/** Builds a screen's first state from its slug, the server's page data and the navigation's. */
export type InitialScreen<S, P> = (slug: string, page: P | undefined, navState: unknown) => S;

/** Set once a share screen has mounted: the page data was the document's first screen's. */
let serverPageUsed = false;

/** A share screen's state, whether the screen is still mounted, and whether it is hydrated. */
export type ShareScreen<S> = {
  screen: S;
  setScreen: Dispatch<SetStateAction<S>>;
  /** False once the screen has unmounted: late replies are dropped. */
  mounted: RefObject<boolean>;
  /** False on the server and while hydrating (useIsClient). */
  isClient: boolean;
};

/** The state of the share screen for `slug`, starting from `initial`. */
export function useShareScreen<S, P>(slug: string, initial: InitialScreen<S, P>): ShareScreen<S> {
  const { page } = useInitialData();
  const location = useLocation();
  const isClient = useIsClient();
  const [screen, setScreen] = useState<S>(() =>
    initial(slug, serverPageUsed ? undefined : page as P | undefined, location.state)
  );
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    serverPageUsed = true;
    forgetDocumentCopy();
    return () => {
      mounted.current = false;
    };
  }, []);
  return { screen, setScreen, mounted, isClient };
}
