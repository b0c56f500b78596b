/** Mount points (docs/PRODUCT.md §3.3, §5.1). */
import { z } from "zod";
import { MOUNT_CACHE_TTL_MAX, MOUNT_NAME_MAX } from "../constants.ts";

/** Letters, digits, underscore, hyphen, CJK characters and slashes; starts with a slash. */
export const MOUNT_PATH_PATTERN = /^\/[\p{L}\p{N}_\-\/\u4e00-\u9fff]*$/u;

export const WEBDAV_POLICIES = ["302_redirect", "native_proxy"] as const;

const MountPath = z.string().trim().min(1, "mount_path_invalid").max(512, "mount_path_invalid")
  .regex(MOUNT_PATH_PATTERN, "mount_path_invalid");

const MountFields = {
  name: z.string().trim().min(1, "mount_name_invalid").max(MOUNT_NAME_MAX, "mount_name_invalid"),
  mount_path: MountPath,
  /** Any case ("S3" from CloudPaste's client); "s3" also fits a local config. */
  storage_type: z.preprocess(
    (v) => typeof v === "string" ? v.trim().toLowerCase() : v,
    z.enum(["s3", "local"]),
  ),
  storage_config_id: z.string().min(1, "validation_failed").max(64),
  remark: z.string().max(1000).optional(),
  sort_order: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  cache_ttl: z.number().int("cache_ttl_invalid").min(0, "cache_ttl_invalid")
    .max(MOUNT_CACHE_TTL_MAX, "cache_ttl_invalid").optional(),
  is_active: z.boolean().optional(),
  web_proxy: z.boolean().optional(),
  enable_sign: z.boolean().optional(),
  sign_expires: z.number().int().min(0).max(365 * 24 * 3600).optional(),
  webdav_policy: z.enum(WEBDAV_POLICIES).optional(),
};

export const MountCreateSchema = z.object(MountFields);
export type MountCreate = z.infer<typeof MountCreateSchema>;

export const MountUpdateSchema = z.object(MountFields).partial();
export type MountUpdate = z.infer<typeof MountUpdateSchema>;

export type MountView = {
  id: string;
  name: string;
  mount_path: string;
  storage_type: "s3" | "local";
  storage_config_id: string;
  remark: string;
  sort_order: number;
  cache_ttl: number;
  is_active: boolean;
  web_proxy: boolean;
  enable_sign: boolean;
  sign_expires: number;
  webdav_policy: typeof WEBDAV_POLICIES[number];
  created_by: string;
  created_at: string;
  updated_at: string;
};
