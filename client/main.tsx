/**
 * Browser entry of the app: hydrates a server-rendered page (the offline page), or renders the
 * app into an empty root. Share pages (/paste/{slug}, /file/{slug}) load their own, lighter
 * entry instead (client/share_main.tsx); the app still shows them after in-app navigation.
 */
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { I18nextProvider } from "react-i18next";
import { App } from "./App.tsx";
import { loadI18n, registeredI18n } from "./i18n/browser.ts";
import { InitialDataContext } from "./app/initial_data.tsx";
import { startPage } from "./app/start_page.ts";
import { applyTheme, readThemeMode } from "./app/theme.ts";
import { registerServiceWorker } from "./pwa/sw_registration.ts";
import { offlineDb } from "./offline/open_db.ts";
// Every stylesheet is imported here only: server rendering imports the pages, and Deno
// cannot load CSS modules. Share pages load this entry's stylesheet too (scripts/build.ts).
import "./styles/app.css";
import "./styles/files.css";
import "./styles/pastes.css";
import "./styles/storage.css";
import "./styles/dashboard.css";
import "./styles/upload.css";
import "./styles/settings.css";
import "./styles/backup.css";
import "./styles/mounts.css";
import "./styles/explorer.css";
import "./styles/tables.css";
import "./styles/offline.css";

const { root, initial, lang } = startPage();
// Only this language's texts: the other one loads when it is chosen (LanguageSwitcher). The
// document loaded them before this script (registry.ts), so hydration starts synchronously.
const i18n = registeredI18n(lang) ?? await loadI18n(lang);
applyTheme(readThemeMode());

const tree = (
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <InitialDataContext.Provider value={initial}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </InitialDataContext.Provider>
    </I18nextProvider>
  </StrictMode>
);

// The offline store is not needed to hydrate, but a share page keeps its offline copy right
// after: start loading it now, alongside hydration.
offlineDb().catch(() => {});
if (root.dataset.ssr === "1") hydrateRoot(root, tree);
else createRoot(root).render(tree);
registerServiceWorker();
