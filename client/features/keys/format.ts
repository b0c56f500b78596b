/** Permission texts of API keys, shared by key management and the account page. */
import type { TFunction } from "i18next";
import { PERMISSION_KEYS, type PermissionObject } from "../../../shared/permissions.ts";

/** The granted permission names of a permission object, in the canonical order. */
export function grantedPermissions(perms: Partial<PermissionObject>): (keyof PermissionObject)[] {
  return PERMISSION_KEYS.filter((k) => perms[k]);
}

/** A one-line summary such as "Text, Files, Mount: view", "All permissions" or "No permissions". */
export function permissionSummary(
  t: TFunction,
  lang: string,
  perms: Partial<PermissionObject>,
): string {
  const granted = grantedPermissions(perms);
  if (granted.length === PERMISSION_KEYS.length) return t("keys.permissions.all");
  if (granted.length === 0) return t("keys.permissions.none");
  const names = granted.map((k) => t(`keys.permissions.${k}`));
  return new Intl.ListFormat(lang, { style: "narrow", type: "unit" }).format(names);
}
