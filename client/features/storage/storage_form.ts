/**
 * The storage config form: values as typed, their checks, and the request bodies.
 * Secrets are write-only: editing starts with empty key fields, and empty means "keep".
 */
import type { RefusalMap } from "../../api/field_errors.ts";
import type { FieldErrors } from "../../components/use_checked_form.ts";
import type { ProviderType, StorageConfigBody, StorageConfigView } from "./storage_api.ts";

/** Every provider, local first (the order of the provider select). */
export const PROVIDERS = [
  "local",
  "aws",
  "r2",
  "b2",
  "aliyun_oss",
  "minio",
  "other",
] as const satisfies readonly ProviderType[];

export const QUOTA_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 } as const;
export type QuotaUnit = keyof typeof QUOTA_UNITS;

export const SIGNATURE_MIN_S = 60;
export const SIGNATURE_MAX_S = 7 * 24 * 3600;
export const SIGNATURE_DEFAULT_S = 3600;

/** The text and switch fields of the request body, and the numbers as typed. */
export type StorageFormValues =
  & Required<Omit<StorageConfigBody, "signature_expires_in" | "total_storage_bytes">>
  & {
    /** Seconds, as typed. */
    signature_expires_in: string;
    /** Empty for no quota. */
    quota: string;
    quota_unit: QuotaUnit;
  };

export type StorageFormField = keyof StorageFormValues;
/** Field → i18n key under storage.form.errors. */
export type StorageFormErrors = FieldErrors<StorageFormValues>;

/** True for the S3-compatible kinds. */
export function isS3(provider: ProviderType): boolean {
  return provider !== "local";
}

/** The values of a new config. */
export function newStorageForm(provider: ProviderType = "aws"): StorageFormValues {
  return {
    name: "",
    provider_type: provider,
    endpoint_url: "",
    bucket_name: "",
    region: "",
    access_key_id: "",
    secret_access_key: "",
    path_style: provider === "minio",
    default_folder: "",
    custom_host: "",
    signature_expires_in: String(SIGNATURE_DEFAULT_S),
    quota: "",
    quota_unit: "GB",
    is_public: false,
    root_dir: "",
  };
}

/** A byte quota in the largest unit that shows it exactly (to 2 decimals); MB otherwise. */
export function splitQuota(bytes: number | null): { quota: string; quota_unit: QuotaUnit } {
  if (bytes === null) return { quota: "", quota_unit: "GB" };
  for (const unit of ["TB", "GB", "MB"] as const) {
    const v = bytes / QUOTA_UNITS[unit];
    const rounded = Math.round(v * 100) / 100;
    if (v >= 1 && Math.abs(rounded - v) * QUOTA_UNITS[unit] < 1) {
      return { quota: String(rounded), quota_unit: unit };
    }
  }
  return { quota: String(bytes / QUOTA_UNITS.MB), quota_unit: "MB" };
}

/** The values of an existing config (key fields empty: they are write-only). */
export function editStorageForm(c: StorageConfigView): StorageFormValues {
  return {
    name: c.name,
    provider_type: c.provider_type,
    endpoint_url: c.endpoint_url,
    bucket_name: c.bucket_name,
    region: c.region,
    access_key_id: "",
    secret_access_key: "",
    path_style: c.path_style,
    default_folder: c.default_folder,
    custom_host: c.custom_host,
    signature_expires_in: String(c.signature_expires_in),
    ...splitQuota(c.total_storage_bytes),
    is_public: c.is_public,
    root_dir: c.root_dir ?? "",
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Parses the quota into bytes: null for none, undefined when invalid. */
export function quotaBytes(v: Pick<StorageFormValues, "quota" | "quota_unit">) {
  const q = v.quota.trim();
  if (q === "") return null;
  if (!/^\d+(\.\d+)?$/.test(q)) return undefined;
  const bytes = Math.round(Number(q) * QUOTA_UNITS[v.quota_unit]);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Checks the form; returns the errors by field (empty when valid). */
export function validateStorageForm(
  v: StorageFormValues,
  mode: "create" | "edit",
): StorageFormErrors {
  const e: StorageFormErrors = {};
  if (!v.name.trim()) e.name = "required";
  else if (v.name.trim().length > 100) e.name = "tooLong";
  if (quotaBytes(v) === undefined) e.quota = "quota";
  if (!isS3(v.provider_type)) {
    if (v.root_dir.trim() && !v.root_dir.trim().startsWith("/")) e.root_dir = "absolutePath";
    return e;
  }
  const endpoint = v.endpoint_url.trim();
  if (endpoint && !isHttpUrl(endpoint)) e.endpoint_url = "url";
  else if (!endpoint && v.provider_type !== "aws") e.endpoint_url = "required";
  if (!v.bucket_name.trim()) e.bucket_name = "required";
  if (mode === "create" && !v.access_key_id.trim()) e.access_key_id = "required";
  if (mode === "create" && !v.secret_access_key) e.secret_access_key = "required";
  if (v.custom_host.trim() && !isHttpUrl(v.custom_host.trim())) e.custom_host = "url";
  const sig = v.signature_expires_in.trim();
  const n = Number(sig);
  if (!/^\d+$/.test(sig) || n < SIGNATURE_MIN_S || n > SIGNATURE_MAX_S) {
    e.signature_expires_in = "signature";
  }
  if (v.default_folder.split("/").some((p) => p === ".." || p === ".")) {
    e.default_folder = "folder";
  }
  return e;
}

/** The POST body of a valid form. */
export function toCreateBody(v: StorageFormValues): StorageConfigBody {
  const common = {
    name: v.name.trim(),
    provider_type: v.provider_type,
    is_public: v.is_public,
    total_storage_bytes: quotaBytes(v) ?? null,
  };
  if (!isS3(v.provider_type)) {
    return { ...common, ...(v.root_dir.trim() ? { root_dir: v.root_dir.trim() } : {}) };
  }
  return {
    ...common,
    endpoint_url: v.endpoint_url.trim(),
    bucket_name: v.bucket_name.trim(),
    region: v.region.trim(),
    access_key_id: v.access_key_id.trim(),
    secret_access_key: v.secret_access_key,
    path_style: v.path_style,
    default_folder: v.default_folder.trim(),
    custom_host: v.custom_host.trim(),
    signature_expires_in: Number(v.signature_expires_in.trim()),
  };
}

/**
 * The PUT body of a valid form: empty key fields are left out (the stored ones stay), and a
 * local root is sent only when it was changed (the view shows the effective directory).
 */
export function toUpdateBody(
  v: StorageFormValues,
  original: StorageConfigView,
): Partial<StorageConfigBody> {
  const body: Partial<StorageConfigBody> = toCreateBody(v);
  const was = splitQuota(original.total_storage_bytes);
  if (was.quota === v.quota.trim() && (was.quota === "" || was.quota_unit === v.quota_unit)) {
    delete body.total_storage_bytes; // unchanged: do not round the stored byte count
  }
  if (!isS3(v.provider_type)) {
    delete body.root_dir;
    const root = v.root_dir.trim();
    if (root !== (original.root_dir ?? "")) body.root_dir = root;
    return body;
  }
  if (!body.access_key_id) delete body.access_key_id;
  if (!body.secret_access_key) delete body.secret_access_key;
  return body;
}

/** Where a server refusal goes: the request fields are the form's own names. */
export const STORAGE_REFUSALS: RefusalMap<StorageFormField> = {
  fields: Object.fromEntries(
    Object.keys(newStorageForm()).map((f) => [f, f as StorageFormField]),
  ),
  codes: { storage_config_name_exists: "name" },
};
