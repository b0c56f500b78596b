/**
 * The one typed table of every app path (docs/PRODUCT.md §2.1) and their page titles, shared by
 * the client's router and the server, which renders each document's title and description.
 */
export const paths = {
  home: "/",
  upload: "/upload",
  login: "/admin/login",
  admin: "/admin",
  dashboard: "/admin/dashboard",
  textManagement: "/admin/text-management",
  fileManagement: "/admin/file-management",
  keyManagement: "/admin/key-management",
  mountManagement: "/admin/mount-management",
  storageConfig: "/admin/storage-config",
  account: "/admin/account",
  backup: "/admin/backup",
  settingsGlobal: "/admin/settings/global",
  settingsWebdav: "/admin/settings/webdav",
  settingsPreview: "/admin/settings/preview",
  settingsSite: "/admin/settings/site",
  mountExplorer: "/mount-explorer",
  offline: "/offline",
  paste: (slug: string) => `/paste/${encodeURIComponent(slug)}`,
  file: (slug: string) => `/file/${encodeURIComponent(slug)}`,
  rawPaste: (slug: string) => `/api/raw/${encodeURIComponent(slug)}`,
} as const;

/** The i18n key of a path's page subtitle (page titles are the site title plus this). */
export function pageTitleKey(pathname: string): string {
  const p = pathname.replace(/\/+$/, "") || "/";
  if (p === "/") return "pageTitle.home";
  if (p.startsWith("/paste/")) return "pageTitle.paste";
  if (p.startsWith("/file/")) return "pageTitle.file";
  if (p.startsWith("/mount-explorer")) return "pageTitle.mountExplorer";
  const exact: Record<string, string> = {
    [paths.upload]: "pageTitle.upload",
    [paths.login]: "pageTitle.login",
    [paths.dashboard]: "pageTitle.dashboard",
    [paths.textManagement]: "pageTitle.textManagement",
    [paths.fileManagement]: "pageTitle.fileManagement",
    [paths.keyManagement]: "pageTitle.keyManagement",
    [paths.mountManagement]: "pageTitle.mountManagement",
    [paths.storageConfig]: "pageTitle.storageConfig",
    [paths.account]: "pageTitle.account",
    [paths.backup]: "pageTitle.backup",
    [paths.settingsGlobal]: "pageTitle.settingsGlobal",
    [paths.settingsWebdav]: "pageTitle.settingsWebdav",
    [paths.settingsPreview]: "pageTitle.settingsPreview",
    [paths.settingsSite]: "pageTitle.settingsSite",
    [paths.offline]: "pageTitle.offline",
    "/not-found": "pageTitle.notFound",
  };
  return exact[p] ?? "pageTitle.home";
}

/** The i18n key of a route's meta description (`pageDescription.*`, one per title). */
export function pageDescriptionKey(pathname: string): string {
  return pageTitleKey(pathname).replace("pageTitle.", "pageDescription.");
}

/** "Subtitle - Site title", the format of every page title. */
export function formatPageTitle(subtitle: string, siteTitle: string): string {
  return subtitle ? `${subtitle} - ${siteTitle}` : siteTitle;
}
