/** File shares (docs/PRODUCT.md §3.2 and §3.11: records, upload fields, presign and commit). */
import { z } from "zod";
import { MAX_SLUG_LENGTH } from "../constants.ts";
import { SLUG_PATTERN } from "../slug.ts";
import { withEditAliases } from "./share_edit.ts";
import { type E2EDescriptor, E2EFileFieldSchema } from "./e2e.ts";

/** A custom slug: letters, digits, hyphen and underscore, at most 50 characters. */
export const SlugSchema = z.string().trim().max(MAX_SLUG_LENGTH, "slug_invalid")
  .regex(SLUG_PATTERN, "slug_invalid");

const MaxViews = z.coerce.number().int("max_views_invalid").min(0, "max_views_invalid")
  .max(1_000_000_000, "max_views_invalid");
/**
 * Share lifetime in HOURS from now, as CloudPaste's client sends it (its "1 day" preset is
 * 24); fractions allowed; 0 or absent means never. Only `fs/file-link` takes seconds.
 */
const ExpiresIn = z.coerce.number().min(0).max(10 * 365 * 24);
const Bool = z.union([z.boolean(), z.enum(["true", "false", "1", "0", ""])]).transform((v) =>
  v === true || v === "true" || v === "1"
);

/** Share options every upload path takes (form fields, query of upload-direct, presign body). */
export const FileShareOptionsSchema = z.object({
  s3_config_id: z.string().max(64).optional(),
  slug: z.union([SlugSchema, z.literal("")]).optional(),
  remark: z.string().max(1000).optional(),
  password: z.string().max(1000).optional(),
  expires_in: ExpiresIn.optional(),
  /** An exact expiry (ISO 8601); wins over `expires_in`. */
  expires_at: z.iso.datetime({ offset: true }).optional(),
  max_views: MaxViews.optional(),
  use_proxy: Bool.optional(),
  path: z.string().max(1024).optional(),
  /**
   * End-to-end encryption (docs/E2E.md): the bytes are ciphertext, `password` must be the
   * access token, and the stored name and type are neutral. A JSON string in forms and queries.
   */
  e2e: E2EFileFieldSchema,
});
export type FileShareOptions = z.infer<typeof FileShareOptionsSchema>;

export const PresignSchema = FileShareOptionsSchema.extend({
  filename: z.string().trim().min(1).max(255),
  size: z.number().int().min(0),
  mimetype: z.string().max(255).optional(),
});
export type Presign = z.infer<typeof PresignSchema>;

export const CommitSchema = FileShareOptionsSchema.extend({
  file_id: z.string().min(1).max(64),
  storage_path: z.string().max(2048).optional(),
  s3_url: z.string().max(4096).optional(),
  filename: z.string().max(255).optional(),
  mimetype: z.string().max(255).optional(),
  size: z.number().int().min(0).optional(),
  etag: z.string().max(256).optional(),
});
export type Commit = z.infer<typeof CommitSchema>;

/**
 * PUT /api/files/:id. `remark: null` clears the remark, `max_views: null` is 0 (unlimited);
 * `newSlug` and `clearPassword: true` as for pastes (share_edit.ts).
 */
export const FileUpdateSchema = withEditAliases(z.object({
  remark: z.string().max(1000).nullable().transform((v) => v ?? "").optional(),
  slug: SlugSchema.min(1, "slug_invalid").optional(),
  expires_at: z.union([z.iso.datetime({ offset: true }), z.null()]).optional(),
  max_views: z.union([MaxViews, z.null()]).transform((v) => v ?? 0).optional(),
  password: z.union([z.string().max(1000), z.null()]).optional(),
  use_proxy: z.boolean().optional(),
}));
export type FileUpdate = z.infer<typeof FileUpdateSchema>;

export const FileListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  search: z.string().max(200).optional(),
  s3_config_id: z.string().max(64).optional(),
});

export const BatchDeleteFilesSchema = z.object({
  ids: z.array(z.string().min(1).max(64)).min(1).max(1000),
  delete_mode: z.enum(["both", "record_only"]).default("both"),
});

export const VerifySchema = z.object({ password: z.string().max(1000) });

/** A file share as its owner or the admin sees it. */
export type FileView = {
  id: string;
  slug: string;
  filename: string;
  size: number;
  mimetype: string;
  remark: string;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  use_proxy: boolean;
  storage_config_id: string;
  storage_path: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  url: string;
  /** Set on an end-to-end encrypted share: name and type sealed in `e2e.meta`. */
  e2e?: E2EDescriptor | null;
};

/** What a visitor sees after opening a share (counted), with links that carry a view token. */
export type PublicFileView =
  & Pick<
    FileView,
    | "id"
    | "slug"
    | "filename"
    | "size"
    | "mimetype"
    | "remark"
    | "has_password"
    | "expires_at"
    | "max_views"
    | "views"
    | "created_at"
    | "e2e"
  >
  & {
    preview_url: string;
    download_url: string;
    can_manage: boolean;
    /** True when the caller owns the share (the admin, or the creating key): not counted. */
    own_view?: boolean;
  };

export const MultipartPartSchema = z.object({
  partNumber: z.number().int().min(1).max(10_000),
  ETag: z.string().min(1).max(256),
  size: z.number().int().min(0).optional(),
});

export const MultipartCompleteSchema = CommitSchema.extend({
  parts: z.array(MultipartPartSchema).min(1).max(10_000),
});

export const FileIdSchema = z.object({ file_id: z.string().min(1).max(64) });

export const RefreshUrlsSchema = FileIdSchema.extend({
  part_numbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(10_000),
});
