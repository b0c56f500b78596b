/**
 * The API key form's model: defaults, validation (docs/PRODUCT.md §5.3: a name; a custom key, when
 * chosen, of letters, digits, underscores and hyphens only; a valid number of custom expiry
 * days) and the request bodies it produces. Pure, so it is tested without a browser.
 */
import {
  maskToPermissions,
  normalizePath,
  pathProblem,
  Permission,
  PERMISSION_KEYS,
  type PermissionObject,
  permissionsToMask,
} from "../../../shared/permissions.ts";
import { CUSTOM_KEY_MIN_LENGTH } from "../../../shared/constants.ts";
import type { RefusalMap } from "../../api/field_errors.ts";
import type { ApiKeyCreateBody, ApiKeyUpdateBody, ApiKeyView } from "./keys_api.ts";

/** Expiry presets (docs/PRODUCT.md §9.1), plus "keep" when editing a dated key. */
export type ExpiryChoice = "keep" | "1d" | "7d" | "30d" | "never" | "custom";
export const EXPIRY_PRESET_DAYS: Record<"1d" | "7d" | "30d", number> = {
  "1d": 1,
  "7d": 7,
  "30d": 30,
};
export const MAX_CUSTOM_DAYS = 36_500;
/** The characters a custom key may use; its length is CUSTOM_KEY_MIN_LENGTH to 128. */
export const CUSTOM_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export { CUSTOM_KEY_MIN_LENGTH };

export type KeyFormValues = {
  name: string;
  expiry: ExpiryChoice;
  customDays: string;
  permissions: PermissionObject;
  basicPath: string;
  useCustomKey: boolean;
  customKey: string;
  isGuest: boolean;
};

export type KeyFormField = "name" | "customDays" | "customKey" | "basicPath";
/** Field → i18n key of the problem. */
export type KeyFormErrors = Partial<Record<KeyFormField, string>>;

/** Where a server refusal goes: request field or error code → the form's field. */
export const KEY_REFUSALS: RefusalMap<KeyFormField> = {
  fields: {
    name: "name",
    custom_key: "customKey",
    basic_path: "basicPath",
    expires_at: "customDays",
  },
  codes: {
    api_key_name_exists: "name",
    api_key_exists: "customKey",
    custom_key_too_short: "customKey",
  },
};

/** The values of a new key's form: 30 days, text permission, base path /. */
export function newKeyForm(): KeyFormValues {
  return {
    name: "",
    expiry: "30d",
    customDays: "",
    permissions: maskToPermissions(Permission.TEXT),
    basicPath: "/",
    useCustomKey: false,
    customKey: "",
    isGuest: false,
  };
}

/** The values of the edit form of an existing key; its expiry is kept unless changed. */
export function editKeyForm(key: ApiKeyView): KeyFormValues {
  return {
    name: key.name,
    expiry: key.expires_at ? "keep" : "never",
    customDays: "",
    permissions: { ...maskToPermissions(0), ...key.permissions },
    basicPath: key.basic_path || "/",
    useCustomKey: false,
    customKey: "",
    isGuest: key.is_guest,
  };
}

/** The custom number of days as an integer in 1..MAX_CUSTOM_DAYS, else null. */
export function parseCustomDays(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= 1 && n <= MAX_CUSTOM_DAYS ? n : null;
}

/** Checks the form; an empty result means it can be sent. */
export function validateKeyForm(v: KeyFormValues, mode: "create" | "edit"): KeyFormErrors {
  const errors: KeyFormErrors = {};
  if (!v.name.trim()) errors.name = "keys.validation.nameRequired";
  if (v.expiry === "custom") {
    if (!v.customDays.trim()) errors.customDays = "keys.validation.customDaysRequired";
    else if (parseCustomDays(v.customDays) === null) {
      errors.customDays = "keys.validation.customDaysInvalid";
    }
  }
  if (mode === "create" && v.useCustomKey) {
    if (!v.customKey.trim()) errors.customKey = "keys.validation.customKeyRequired";
    else if (!CUSTOM_KEY_PATTERN.test(v.customKey.trim())) {
      errors.customKey = "keys.validation.customKeyInvalid";
    } else if (v.customKey.trim().length < CUSTOM_KEY_MIN_LENGTH) {
      errors.customKey = "keys.validation.customKeyTooShort";
    }
  }
  const problem = pathProblem(v.basicPath.trim() || "/");
  if (problem) errors.basicPath = `errors.${problem}`;
  return errors;
}

/** The expires_at for a choice: an ISO time, null for never, undefined for "keep". */
export function expiresAtFor(
  choice: ExpiryChoice,
  customDays: string,
  now = Date.now(),
): string | null | undefined {
  if (choice === "keep") return undefined;
  if (choice === "never") return null;
  const days = choice === "custom" ? parseCustomDays(customDays) : EXPIRY_PRESET_DAYS[choice];
  if (days === null) throw new Error(`invalid custom days: ${customDays}`);
  return new Date(now + days * 24 * 60 * 60 * 1000).toISOString();
}

function cleanPermissions(p: PermissionObject): PermissionObject {
  return maskToPermissions(permissionsToMask(p));
}

/** The POST body of a valid create form. */
export function toCreateBody(v: KeyFormValues, now = Date.now()): ApiKeyCreateBody {
  const body: ApiKeyCreateBody = {
    name: v.name.trim(),
    expires_at: expiresAtFor(v.expiry, v.customDays, now) ?? null,
    permissions: cleanPermissions(v.permissions),
    role: "GENERAL",
    basic_path: normalizePath(v.basicPath.trim() || "/") ?? "/",
    is_guest: v.isGuest ? 1 : 0,
  };
  if (v.useCustomKey) body.custom_key = v.customKey.trim();
  return body;
}

/** The PUT body of a valid edit form (expiry left out when kept). */
export function toUpdateBody(v: KeyFormValues, now = Date.now()): ApiKeyUpdateBody {
  const body: ApiKeyUpdateBody = {
    name: v.name.trim(),
    permissions: cleanPermissions(v.permissions),
    basic_path: normalizePath(v.basicPath.trim() || "/") ?? "/",
    is_guest: v.isGuest ? 1 : 0,
  };
  const expires = expiresAtFor(v.expiry, v.customDays, now);
  if (expires !== undefined) body.expires_at = expires;
  return body;
}

/** "all", "none" or "some": the state of the select-all checkbox. */
export function selectionState(p: PermissionObject): "all" | "none" | "some" {
  const n = PERMISSION_KEYS.filter((k) => p[k]).length;
  return n === PERMISSION_KEYS.length ? "all" : n === 0 ? "none" : "some";
}

/** Every permission set to `on`. */
export function allPermissions(on: boolean): PermissionObject {
  return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, on])) as PermissionObject;
}
