/**
 * The Chinese (zh-CN) locale files by file name (see catalogues.ts). A module of its own so
 * that the browser imports only the language it shows (browser.ts).
 */
import { registerCatalogue } from "./registry.ts";
// App shell, navigation, page titles, not-found and offline pages.
import zhCommon from "./locales/zh-CN/common.json" with { type: "json" };
// Theme, language, skip link, admin sidebar.
import zhShell from "./locales/zh-CN/shell.json" with { type: "json" };
// Login page.
import zhAuth from "./locales/zh-CN/auth.json" with { type: "json" };
// Key management.
import zhKeys from "./locales/zh-CN/keys.json" with { type: "json" };
// Account management.
import zhAccount from "./locales/zh-CN/account.json" with { type: "json" };
// Pastes (home, paste, texts).
import zhPastes from "./locales/zh-CN/pastes.json" with { type: "json" };
// Files (file view, previews, file management).
import zhFiles from "./locales/zh-CN/files.json" with { type: "json" };
// Upload screen.
import zhUpload from "./locales/zh-CN/upload.json" with { type: "json" };
// S3 storage config.
import zhStorage from "./locales/zh-CN/storage.json" with { type: "json" };
// Dashboard.
import zhDashboard from "./locales/zh-CN/dashboard.json" with { type: "json" };
// System settings, announcement banner, environment switcher.
import zhSettings from "./locales/zh-CN/settings.json" with { type: "json" };
// Backup and restore.
import zhBackup from "./locales/zh-CN/backup.json" with { type: "json" };
// Mount management.
import zhMounts from "./locales/zh-CN/mounts.json" with { type: "json" };
// Installable app: manifest texts, install and update cards, offline badge, chunk errors.
import zhPwa from "./locales/zh-CN/pwa.json" with { type: "json" };
// Mount explorer (views, uploads, tasks, basket, search, previews).
import zhExplorer from "./locales/zh-CN/explorer.json" with { type: "json" };
// Offline store and queue: queued writes, sync notices, offline copies, share target.
import zhOffline from "./locales/zh-CN/offline.json" with { type: "json" };

// End-to-end encrypted shares (switch, share pages, errors).
import zhE2e from "./locales/zh-CN/e2e.json" with { type: "json" };

/** Locale files of zh-CN, by file name (without `.json`), in registration order. */
export const files: Record<string, Record<string, unknown>> = {
  common: zhCommon,
  shell: zhShell,
  auth: zhAuth,
  keys: zhKeys,
  account: zhAccount,
  pastes: zhPastes,
  files: zhFiles,
  upload: zhUpload,
  storage: zhStorage,
  dashboard: zhDashboard,
  settings: zhSettings,
  backup: zhBackup,
  mounts: zhMounts,
  explorer: zhExplorer,
  pwa: zhPwa,
  offline: zhOffline,
  e2e: zhE2e,
};

registerCatalogue("zh-CN", files);
