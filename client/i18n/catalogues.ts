/**
 * Every locale file, per language and by file name. Each feature owns one pair of JSON files
 * (locales/zh-CN/<name>.json and locales/en-US/<name>.json); the top-level keys of one file
 * must not appear in any other file, and the two languages must match key for key
 * (catalogues_test.ts checks both, and that every file on disk is registered here).
 *
 * To add a feature's files: import both languages below and add them to `catalogueFiles`
 * under the same name.
 */
import type { Language } from "../../shared/constants.ts";
// App shell, navigation, page titles, not-found and offline pages.
import zhCommon from "./locales/zh-CN/common.json" with { type: "json" };
import enCommon from "./locales/en-US/common.json" with { type: "json" };
// Theme, language, skip link, admin sidebar.
import zhShell from "./locales/zh-CN/shell.json" with { type: "json" };
import enShell from "./locales/en-US/shell.json" with { type: "json" };
// Login page.
import zhAuth from "./locales/zh-CN/auth.json" with { type: "json" };
import enAuth from "./locales/en-US/auth.json" with { type: "json" };
// Key management.
import zhKeys from "./locales/zh-CN/keys.json" with { type: "json" };
import enKeys from "./locales/en-US/keys.json" with { type: "json" };
// Account management.
import zhAccount from "./locales/zh-CN/account.json" with { type: "json" };
import enAccount from "./locales/en-US/account.json" with { type: "json" };
// Pastes (home, paste, texts).
import zhPastes from "./locales/zh-CN/pastes.json" with { type: "json" };
import enPastes from "./locales/en-US/pastes.json" with { type: "json" };
// Files (file view, previews, file management).
import zhFiles from "./locales/zh-CN/files.json" with { type: "json" };
import enFiles from "./locales/en-US/files.json" with { type: "json" };
// Upload screen.
import zhUpload from "./locales/zh-CN/upload.json" with { type: "json" };
import enUpload from "./locales/en-US/upload.json" with { type: "json" };
// S3 storage config.
import zhStorage from "./locales/zh-CN/storage.json" with { type: "json" };
import enStorage from "./locales/en-US/storage.json" with { type: "json" };
// Dashboard.
import zhDashboard from "./locales/zh-CN/dashboard.json" with { type: "json" };
import enDashboard from "./locales/en-US/dashboard.json" with { type: "json" };
// System settings, announcement banner, environment switcher.
import zhSettings from "./locales/zh-CN/settings.json" with { type: "json" };
import enSettings from "./locales/en-US/settings.json" with { type: "json" };
// Backup and restore.
import zhBackup from "./locales/zh-CN/backup.json" with { type: "json" };
import enBackup from "./locales/en-US/backup.json" with { type: "json" };
// Mount management.
import zhMounts from "./locales/zh-CN/mounts.json" with { type: "json" };
import enMounts from "./locales/en-US/mounts.json" with { type: "json" };
// Installable app: manifest texts, install and update cards, offline badge, chunk errors.
import zhPwa from "./locales/zh-CN/pwa.json" with { type: "json" };
import enPwa from "./locales/en-US/pwa.json" with { type: "json" };
// Mount explorer (views, uploads, tasks, basket, search, previews).
import zhExplorer from "./locales/zh-CN/explorer.json" with { type: "json" };
import enExplorer from "./locales/en-US/explorer.json" with { type: "json" };
// Offline store and queue: queued writes, sync notices, offline copies, share target.
import zhOffline from "./locales/zh-CN/offline.json" with { type: "json" };
import enOffline from "./locales/en-US/offline.json" with { type: "json" };

type Catalogue = Record<string, unknown>;

/** Locale files by language, then by file name (without `.json`). */
export const catalogueFiles: Record<Language, Record<string, Catalogue>> = {
  "zh-CN": {
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
  },
  "en-US": {
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
  },
};

/** Every locale file of a language, in registration order (merged by i18n/mod.ts). */
export const catalogues: Record<Language, Catalogue[]> = {
  "zh-CN": Object.values(catalogueFiles["zh-CN"]),
  "en-US": Object.values(catalogueFiles["en-US"]),
};
