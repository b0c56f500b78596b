/**
 * Browser entry of the share pages (/paste/{slug}, /file/{slug}), which the server renders with
 * React and this entry hydrates with Preact: scripts/build.ts builds it with react and
 * react-dom aliased to preact/compat, react-router to client/share/router.tsx and the i18n
 * loader to client/share/i18n.ts, so the page loads about a third of the app entry's script
 * (docs/DECISIONS.md, "Share pages hydrate with Preact"). The components are the app's own.
 * Every other page loads client/main.tsx; links from here to them are full navigations. The
 * stylesheet is the app entry's (scripts/build.ts), so both kinds of page share one file.
 */
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { Layout } from "./app/Layout.tsx";
import { PastePage } from "./features/pastes/PastePage.tsx";
import { FilePage } from "./features/files/FilePage.tsx";
import { loadI18n, registeredI18n } from "./share/i18n.ts";
import { InitialDataContext } from "./app/initial_data.tsx";
import { startPage } from "./app/start_page.ts";
import { applyTheme, readThemeMode } from "./app/theme.ts";
import { registerServiceWorker } from "./pwa/sw_registration.ts";
import { offlineDb } from "./offline/open_db.ts";
import { type ShareRoute, ShareRouter } from "./share/router.tsx";
import { SHARE_PAGE_PATTERNS } from "../shared/share_pages.ts";

const { root, initial, lang } = startPage();
const i18n = registeredI18n(lang) ?? await loadI18n(lang);
applyTheme(readThemeMode());

const routes: ShareRoute[] = [
  { pattern: SHARE_PAGE_PATTERNS.paste, params: ["slug"], element: <PastePage /> },
  { pattern: SHARE_PAGE_PATTERNS.file, params: ["slug"], element: <FilePage /> },
];

hydrateRoot(
  root,
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <InitialDataContext.Provider value={initial}>
        <ShareRouter routes={routes}>
          <Layout />
        </ShareRouter>
      </InitialDataContext.Provider>
    </I18nextProvider>
  </StrictMode>,
);
// After hydration: the offline store (Dexie) for the share's offline copy.
offlineDb().catch(() => {});
registerServiceWorker();
