/**
 * The English (en-US) locale files by file name (see catalogues.ts). A module of its own so
 * that the browser imports only the language it shows (browser.ts).
 */
import { registerCatalogue } from "./registry.ts";
// App shell, navigation, page titles, not-found and offline pages.
import enCommon from "./locales/en-US/common.json" with { type: "json" };
// Theme, language, skip link, admin sidebar.
import enShell from "./locales/en-US/shell.json" with { type: "json" };
// Login page.
import enAuth from "./locales/en-US/auth.json" with { type: "json" };
// Key management.
import enKeys from "./locales/en-US/keys.json" with { type: "json" };
// Account management.
import enAccount from "./locales/en-US/account.json" with { type: "json" };
// Pastes (home, paste, texts).
import enPastes from "./locales/en-US/pastes.json" with { type: "json" };
// Files (file view, previews, file management).
import enFiles from "./locales/en-US/files.json" with { type: "json" };
// Upload screen.
import enUpload from "./locales/en-US/upload.json" with { type: "json" };
// S3 storage config.
import enStorage from "./locales/en-US/storage.json" with { type: "json" };
// Dashboard.
import enDashboard from "./locales/en-US/dashboard.json" with { type: "json" };
// System settings, announcement banner, environment switcher.
import enSettings from "./locales/en-US/settings.json" with { type: "json" };
// Backup and restore.
import enBackup from "./locales/en-US/backup.json" with { type: "json" };
// Mount management.
import enMounts from "./locales/en-US/mounts.json" with { type: "json" };
// Installable app: manifest texts, install and update cards, offline badge, chunk errors.
import enPwa from "./locales/en-US/pwa.json" with { type: "json" };
// Mount explorer (views, uploads, tasks, basket, search, previews).
import enExplorer from "./locales/en-US/explorer.json" with { type: "json" };
// Offline store and queue: queued writes, sync notices, offline copies, share target.
import enOffline from "./locales/en-US/offline.json" with { type: "json" };

// End-to-end encrypted shares (switch, share pages, errors).
import enE2e from "./locales/en-US/e2e.json" with { type: "json" };

/** Locale files of en-US, by file name (without `.json`), in registration order. */
export const files: Record<string, Record<string, unknown>> = {
  common: enCommon,
  shell: enShell,
  auth: enAuth,
  keys: enKeys,
  account: enAccount,
  pastes: enPastes,
  files: enFiles,
  upload: enUpload,
  storage: enStorage,
  dashboard: enDashboard,
  settings: enSettings,
  backup: enBackup,
  mounts: enMounts,
  explorer: enExplorer,
  pwa: enPwa,
  offline: enOffline,
  e2e: enE2e,
};

registerCatalogue("en-US", files);
