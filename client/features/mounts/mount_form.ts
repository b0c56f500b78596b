/**
 * The mount form (docs/PRODUCT.md §3.3, §5.1): values as typed, their checks, and
 * the request bodies. The path rule repeats shared/schemas/mounts.ts MOUNT_PATH_PATTERN here so
 * that the browser bundle does not pull in zod; mount_form_test.ts checks the two agree.
 */
import type { MountBody, MountView } from "./mounts_api.ts";
import type { RefusalMap } from "../../api/field_errors.ts";
import type { FieldErrors } from "../../components/use_checked_form.ts";
import { MOUNT_CACHE_TTL_MAX, MOUNT_NAME_MAX } from "../../../shared/constants.ts";

/** Letters, digits, underscore, hyphen, CJK characters and slashes; starts with a slash. */
export const MOUNT_PATH_RULE = /^\/[\p{L}\p{N}_\-\/\u4e00-\u9fff]*$/u;
/** First path segments the server keeps for itself (server/services/mounts.ts). */
export const RESERVED_MOUNT_SEGMENTS = ["api", "dav", "admin"] as const;
/** The cache TTL placeholder of docs/PRODUCT.md §9.1 (also the server's default). */
export const CACHE_TTL_PLACEHOLDER = 300;
/** Largest proxy-signature lifetime the server accepts (one year), in seconds. */
export const SIGN_EXPIRES_MAX = 365 * 24 * 3600;

export type StorageKind = "s3" | "local";
export type WebdavPolicy = "302_redirect" | "native_proxy";

export type MountFormValues = {
  name: string;
  mount_path: string;
  storage_type: StorageKind;
  storage_config_id: string;
  remark: string;
  /** Whole numbers, as typed. */
  sort_order: string;
  /** Empty means the default (300 s). */
  cache_ttl: string;
  is_active: boolean;
  web_proxy: boolean;
  enable_sign: boolean;
  /** Seconds; 0 means never. */
  sign_expires: string;
  webdav_policy: WebdavPolicy;
};

export type MountFormField = keyof MountFormValues;
/** Field → key under mounts.form.errors. */
export type MountFormErrors = FieldErrors<MountFormValues>;

/** The values of a new mount. */
export function newMountForm(): MountFormValues {
  return {
    name: "",
    mount_path: "/",
    storage_type: "local",
    storage_config_id: "",
    remark: "",
    sort_order: "0",
    cache_ttl: "",
    is_active: true,
    web_proxy: false,
    enable_sign: false,
    sign_expires: "0",
    webdav_policy: "302_redirect",
  };
}

/** The values of an existing mount. */
export function editMountForm(m: MountView): MountFormValues {
  return {
    name: m.name,
    mount_path: m.mount_path,
    storage_type: m.storage_type,
    storage_config_id: m.storage_config_id,
    remark: m.remark,
    sort_order: String(m.sort_order),
    cache_ttl: String(m.cache_ttl),
    is_active: m.is_active,
    web_proxy: m.web_proxy,
    enable_sign: m.enable_sign,
    sign_expires: String(m.sign_expires),
    webdav_policy: m.webdav_policy,
  };
}

const WHOLE = /^-?\d+$/;

/** Why a mount path is refused, or null when it is fine (docs/PRODUCT.md §5.1). */
export function mountPathError(path: string): string | null {
  const p = path.trim();
  if (!p) return "pathRequired";
  if (!p.startsWith("/")) return "pathSlash";
  if (!MOUNT_PATH_RULE.test(p)) return "pathChars";
  const segments = p.split("/").filter(Boolean);
  if (segments.length === 0) return "pathRoot";
  if ((RESERVED_MOUNT_SEGMENTS as readonly string[]).includes(segments[0].toLowerCase())) {
    return "pathReserved";
  }
  return null;
}

/** Checks every field; the result maps fields to error keys (empty when valid). */
export function validateMountForm(v: MountFormValues): MountFormErrors {
  const e: MountFormErrors = {};
  const name = v.name.trim();
  if (!name) e.name = "nameRequired";
  else if ([...name].length > MOUNT_NAME_MAX) e.name = "nameTooLong";
  const path = mountPathError(v.mount_path);
  if (path) e.mount_path = path;
  if (!v.storage_config_id) e.storage_config_id = "configRequired";
  const sort = v.sort_order.trim();
  if (sort && (!WHOLE.test(sort) || Math.abs(Number(sort)) > 1_000_000)) {
    e.sort_order = "sortInvalid";
  }
  const ttl = v.cache_ttl.trim();
  if (ttl && (!/^\d+$/.test(ttl) || Number(ttl) > MOUNT_CACHE_TTL_MAX)) e.cache_ttl = "ttlInvalid";
  const sign = v.sign_expires.trim();
  if (sign && (!/^\d+$/.test(sign) || Number(sign) > SIGN_EXPIRES_MAX)) {
    e.sign_expires = "signExpiresInvalid";
  }
  if ([...v.remark].length > 1000) e.remark = "remarkTooLong";
  return e;
}

/** The create body (and the full update body) of valid values. */
export function toMountBody(v: MountFormValues): MountBody {
  const sort = v.sort_order.trim();
  const ttl = v.cache_ttl.trim();
  const sign = v.sign_expires.trim();
  return {
    name: v.name.trim(),
    mount_path: v.mount_path.trim(),
    storage_type: v.storage_type,
    storage_config_id: v.storage_config_id,
    remark: v.remark.trim(),
    sort_order: sort ? Number(sort) : 0,
    ...(ttl ? { cache_ttl: Number(ttl) } : {}),
    is_active: v.is_active,
    web_proxy: v.web_proxy,
    enable_sign: v.enable_sign,
    sign_expires: sign ? Number(sign) : 0,
    webdav_policy: v.webdav_policy,
  };
}

/**
 * Where a server refusal goes: the request fields are the form's own names, and these codes
 * always concern one field.
 */
export const MOUNT_REFUSALS: RefusalMap<MountFormField> = {
  fields: Object.fromEntries(
    Object.keys(newMountForm()).map((f) => [f, f as MountFormField]),
  ),
  codes: {
    mount_name_invalid: "name",
    mount_path_invalid: "mount_path",
    mount_path_reserved: "mount_path",
    mount_path_taken: "mount_path",
    cache_ttl_invalid: "cache_ttl",
    mount_storage_mismatch: "storage_config_id",
    storage_config_not_found: "storage_config_id",
  },
};
