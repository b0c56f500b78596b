/** API key requests and responses (docs/PRODUCT.md §3.4, §6). */
import { z } from "zod";
import {
  ALL_PERMISSIONS,
  maskToPermissions,
  pathProblem,
  PERMISSION_KEYS,
} from "../permissions.ts";
import { CUSTOM_KEY_MIN_LENGTH } from "../constants.ts";

const PermissionObjectFields = z.object(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean().optional()])) as Record<
    (typeof PERMISSION_KEYS)[number],
    z.ZodOptional<z.ZodBoolean>
  >,
);

/**
 * The bitmask of docs/PRODUCT.md §6.2 (for example `3`, or `768` for two mount bits) with only
 * known bits.
 */
const PermissionMask = z.number().int().min(0)
  .refine((m) => (m & ~ALL_PERMISSIONS) === 0, "validation_failed")
  .transform((m) => maskToPermissions(m));

/** Key permissions as the permission object or the integer bitmask; both mean the same. */
export const PermissionObjectSchema = z.union([PermissionObjectFields, PermissionMask]);

/** A base path; a refusal names what is wrong with it (`base_path_dot_segment`…). */
const BasicPath = z.string().min(1).max(1024).superRefine((path, ctx) => {
  const problem = pathProblem(path);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
/** An ISO 8601 time, or null / "never" / "" for a key that never expires. */
const ExpiresAt = z.union([
  z.iso.datetime({ offset: true }),
  z.null(),
  z.enum(["never", ""]).transform(() => null),
]);

export const ApiKeyCreateSchema = z.object({
  name: z.string().trim().min(1, "validation_failed").max(100),
  expires_at: ExpiresAt.optional().default(null),
  permissions: PermissionObjectSchema.optional().default({}),
  role: z.string().max(20).optional().default("GENERAL"),
  custom_key: z.string().regex(/^[A-Za-z0-9_-]*$/, "validation_failed")
    .min(CUSTOM_KEY_MIN_LENGTH, "custom_key_too_short").max(128, "validation_failed").optional()
    .or(z.literal("").transform(() => undefined)),
  basic_path: BasicPath.optional().default("/"),
  is_guest: z.union([z.literal(0), z.literal(1), z.boolean()]).optional().default(0)
    .transform((v) => v === 1 || v === true),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;

export const ApiKeyUpdateSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  expires_at: ExpiresAt.optional(),
  permissions: PermissionObjectSchema.optional(),
  role: z.string().max(20).optional(),
  basic_path: BasicPath.optional(),
  is_guest: z.union([z.literal(0), z.literal(1), z.boolean()]).optional()
    .transform((v) => v === undefined ? undefined : v === 1 || v === true),
});
export type ApiKeyUpdate = z.infer<typeof ApiKeyUpdateSchema>;

/** What the API returns for a key: never the key itself, except `key` once at creation. */
export type ApiKeyView = {
  id: string;
  name: string;
  key_masked: string;
  permissions: Record<(typeof PERMISSION_KEYS)[number], boolean>;
  permission_mask: number;
  role: string;
  basic_path: string;
  is_guest: boolean;
  created_at: string;
  expires_at: string | null;
  last_used: string | null;
  is_expired: boolean;
};
