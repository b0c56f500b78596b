/** Display helpers for dates and permissions, shared by key management and the account page. */
import type { TFunction } from "i18next";
import { PERMISSION_KEYS, type PermissionObject } from "../../../shared/permissions.ts";

/** A date and time in the UI language, or `fallback` for null or an unparsable value. */
export function formatDateTime(iso: string | null | undefined, lang: string, fallback: string) {
  if (!iso) return fallback;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return fallback;
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
}

/**
 * A date and its time of day as two texts in the UI language (a table cell may break the line
 * between them, never inside either), or null for null or an unparsable value.
 */
export function formatDateParts(
  iso: string | null | undefined,
  lang: string,
): [date: string, time: string] | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return [
    new Intl.DateTimeFormat(lang, { dateStyle: "medium" }).format(d),
    new Intl.DateTimeFormat(lang, { timeStyle: "short" }).format(d),
  ];
}

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
