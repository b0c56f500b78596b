/**
 * The admin modules (docs/PRODUCT.md §2.3, §6): who may use each one, the sidebar order,
 * and the landing order for /admin. Guards, the sidebar and the login page all ask this table,
 * so the three never disagree.
 */
import type { AuthState } from "./auth_store.ts";
import { paths } from "../../shared/app_paths.ts";
import { hasMountAccess, hasPermission, Permission } from "../../shared/permissions.ts";

export type AdminModuleId =
  | "dashboard"
  | "textManagement"
  | "fileManagement"
  | "storageConfig"
  | "mountManagement"
  | "keyManagement"
  | "backup"
  | "settingsGlobal"
  | "settingsPreview"
  | "account"
  | "settingsWebdav"
  | "settingsSite";

/** Who may use a module. */
export type ModuleRule =
  | { kind: "admin" }
  | { kind: "loggedIn" }
  | { kind: "bits"; bits: number }
  | { kind: "mount" };

export type AdminModule = {
  id: AdminModuleId;
  path: string;
  /** i18n key of the sidebar label. */
  labelKey: string;
  rule: ModuleRule;
  /** Entries with a group are shown nested under that group's heading. */
  group?: "settings";
};

const ADMIN = { kind: "admin" } as const;

/** A module whose path and sidebar label follow from its id. */
function adminModule(id: AdminModuleId, rule: ModuleRule, group?: "settings"): AdminModule {
  const row: AdminModule = { id, path: paths[id], labelKey: `adminNav.${id}`, rule };
  return group ? { ...row, group } : row;
}

/**
 * Sidebar order (docs/PRODUCT.md §2.3). The settings group holds global, preview, account, WebDAV,
 * site.
 */
export const ADMIN_MODULES: readonly AdminModule[] = [
  adminModule("dashboard", ADMIN),
  adminModule("textManagement", { kind: "bits", bits: Permission.TEXT }),
  adminModule("fileManagement", { kind: "bits", bits: Permission.FILE_SHARE }),
  adminModule("storageConfig", ADMIN),
  adminModule("mountManagement", { kind: "mount" }),
  adminModule("keyManagement", ADMIN),
  adminModule("backup", ADMIN),
  adminModule("settingsGlobal", ADMIN, "settings"),
  adminModule("settingsPreview", ADMIN, "settings"),
  adminModule("account", { kind: "loggedIn" }, "settings"),
  adminModule("settingsWebdav", ADMIN, "settings"),
  adminModule("settingsSite", ADMIN, "settings"),
];

/** Where /admin lands (docs/PRODUCT.md §2.2): the first of these the user may use. */
export const LANDING_ORDER: readonly AdminModuleId[] = [
  "dashboard",
  "textManagement",
  "fileManagement",
  "mountManagement",
  "account",
];

type Who = Pick<AuthState, "authType" | "permissions">;

/** True when the user satisfies the rule. Admins satisfy every rule; nobody logged out does. */
export function allows(auth: Who, rule: ModuleRule): boolean {
  if (auth.authType === "none") return false;
  if (auth.authType === "admin") return true;
  switch (rule.kind) {
    case "admin":
      return false;
    case "loggedIn":
      return true;
    case "bits":
      return hasPermission(auth.permissions, rule.bits);
    case "mount":
      return hasMountAccess(auth.permissions);
  }
}

/** The modules the user may see in the sidebar, in sidebar order. */
export function visibleModules(auth: Who): AdminModule[] {
  return ADMIN_MODULES.filter((m) => allows(auth, m.rule));
}

/** The path of the user's first allowed module, or the login page when logged out. */
export function firstAllowedPath(auth: Who): string {
  if (auth.authType === "none") return paths.login;
  for (const id of LANDING_ORDER) {
    const m = ADMIN_MODULES.find((x) => x.id === id)!;
    if (allows(auth, m.rule)) return m.path;
  }
  return paths.account;
}

/**
 * A same-origin path that is safe to go to after login, or null. Refuses absolute URLs,
 * protocol-relative `//host` and the login page itself.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return null;
  }
  if (value === paths.login || value.startsWith(paths.login + "?")) return null;
  return value;
}

/** The login path that comes back to `target` (path plus search) afterwards. */
export function loginPathFor(target: string): string {
  const back = safeRedirect(target);
  return back ? `${paths.login}?redirect=${encodeURIComponent(back)}` : paths.login;
}
