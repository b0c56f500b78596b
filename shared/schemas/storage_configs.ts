/** Storage configs (docs/PRODUCT.md §3.5 and §10.3): S3-compatible buckets or local disk. */
import { z } from "zod";

export const PROVIDER_TYPES = ["local", "aws", "r2", "b2", "aliyun_oss", "minio", "other"] as const;
export type ProviderType = typeof PROVIDER_TYPES[number];

/**
 * CloudPaste's provider names (any case), read as Cubby's codes. The canonical codes are
 * accepted in any case too.
 */
export const PROVIDER_ALIASES: Record<string, ProviderType> = {
  "cloudflare r2": "r2",
  "backblaze b2": "b2",
  "aws s3": "aws",
  "aliyun oss": "aliyun_oss",
  "other": "other",
  "other s3 compatible": "other",
  "minio": "minio",
};

/** A provider type: one of PROVIDER_TYPES or an alias from PROVIDER_ALIASES. */
const ProviderTypeSchema = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  const lower = v.trim().toLowerCase();
  return PROVIDER_ALIASES[lower] ?? lower;
}, z.enum(PROVIDER_TYPES));

const Name = z.string().trim().min(1, "validation_failed").max(100);
const OptionalText = (max: number) => z.string().trim().max(max).optional();
const Bytes = z.union([z.number().int().min(0), z.null()]);

/** Fields common to create and update; secrets are write-only. */
const ConfigFields = {
  name: Name,
  provider_type: ProviderTypeSchema,
  endpoint_url: z.union([z.url({ protocol: /^https?$/ }), z.literal("")]).optional(),
  bucket_name: OptionalText(255),
  region: OptionalText(64),
  access_key_id: OptionalText(256),
  secret_access_key: z.string().max(512).optional(),
  path_style: z.boolean().optional(),
  default_folder: OptionalText(512),
  is_public: z.boolean().optional(),
  custom_host: z.union([z.url({ protocol: /^https?$/ }), z.literal("")]).optional(),
  signature_expires_in: z.number().int().min(60).max(7 * 24 * 3600).optional(),
  total_storage_bytes: Bytes.optional(),
  /** Local configs only: an absolute directory; defaults to DATA_DIR/storage. */
  root_dir: OptionalText(1024),
};

export const StorageConfigCreateSchema = z.object(ConfigFields).superRefine((v, ctx) => {
  if (v.provider_type === "local") return;
  for (const field of ["bucket_name", "access_key_id", "secret_access_key"] as const) {
    if (!v[field]) ctx.addIssue({ code: "custom", path: [field], message: "validation_failed" });
  }
});
export type StorageConfigCreate = z.infer<typeof StorageConfigCreateSchema>;

export const StorageConfigUpdateSchema = z.object(ConfigFields).partial();
export type StorageConfigUpdate = z.infer<typeof StorageConfigUpdateSchema>;

/** What the API returns: never the secret, and the access key id only masked. */
export type StorageConfigView = {
  id: string;
  name: string;
  provider_type: ProviderType;
  storage_type: "local" | "s3";
  endpoint_url: string;
  bucket_name: string;
  region: string;
  access_key_id_masked: string;
  has_secret: boolean;
  path_style: boolean;
  default_folder: string;
  is_public: boolean;
  is_default: boolean;
  custom_host: string;
  signature_expires_in: number;
  total_storage_bytes: number | null;
  root_dir: string | null;
  used_bytes: number;
  /**
   * True for a local config while instances may share the KV (KV_URL): its files live on one
   * host, so instances on other hosts cannot reach them.
   */
  single_host_warning: boolean;
  created_at: string;
  updated_at: string;
};

export type StorageTestStep = { step: string; ok: boolean; message: string; ms: number };
