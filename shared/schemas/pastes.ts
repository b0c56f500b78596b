/**
 * Text share (paste) requests and responses (docs/PRODUCT.md §3.1, §5.2, §7.2). Issue messages that
 * are catalogue codes (`slug_invalid`, `content_too_large`...) become the 400's `error` code.
 */
import { z } from "zod";
import { isReservedSlug, SLUG_PATTERN, utf8ByteLength } from "../slug.ts";
import { withEditAliases } from "./share_edit.ts";
import { E2ETextSchema, isAccessToken } from "./e2e.ts";
import { maxTextCiphertextChars } from "../e2e/payloads.ts";
import type { E2EDescriptor } from "./e2e.ts";

export { isValidSlug, SLUG_PATTERN, utf8ByteLength } from "../slug.ts";
import { DEFAULT_PASTE_LIST_LIMIT, MAX_PASTE_BYTES, MAX_SLUG_LENGTH } from "../constants.ts";

export const MAX_REMARK_LENGTH = 1000;
export const MAX_SHARE_PASSWORD_LENGTH = 1000;
export const MAX_LIST_LIMIT = 100;
export const MAX_BATCH_IDS = 1000;

/** A custom link suffix: letters, digits, `_` and `-`, 1..50, not reserved. */
export const SlugSchema = z.string({ error: "slug_invalid" })
  .max(MAX_SLUG_LENGTH, "slug_invalid")
  .regex(SLUG_PATTERN, "slug_invalid")
  .refine((s) => !isReservedSlug(s), "slug_reserved");

/** Paste content: non-blank, at most MAX_PASTE_BYTES in UTF-8. */
export const ContentSchema = z.string({
  error: (iss) => iss.input === undefined || iss.input === null ? "content_empty" : undefined,
})
  .refine((s) => s.trim() !== "", "content_empty")
  .refine(
    (s) => s.length <= MAX_PASTE_BYTES && utf8ByteLength(s) <= MAX_PASTE_BYTES,
    "content_too_large",
  );

const Remark = z.string({ error: "validation_failed" }).max(MAX_REMARK_LENGTH, "remark_too_long");
const Password = z.string({ error: "validation_failed" }).max(MAX_SHARE_PASSWORD_LENGTH);
const ExpiresAt = z.union([
  z.iso.datetime({ offset: true, error: "expires_at_invalid" }),
  z.null(),
], {
  error: "expires_at_invalid",
});
const MaxViews = z.number({ error: "max_views_invalid" })
  .int("max_views_invalid")
  .min(0, "max_views_invalid")
  .max(Number.MAX_SAFE_INTEGER, "max_views_invalid");

/** The longest ciphertext an end-to-end encrypted paste may store (base64url characters). */
export const MAX_E2E_CONTENT_CHARS = maxTextCiphertextChars(MAX_PASTE_BYTES);
const E2E_CONTENT = /^[A-Za-z0-9_-]+$/;

/**
 * POST /api/paste. An empty slug means "pick a random one". With `e2e`, `content` is the
 * ciphertext (base64url, docs/E2E.md) and `password` the access token derived from the key.
 */
export const PasteCreateSchema = z.object({
  content: z.string({
    error: (iss) => iss.input === undefined || iss.input === null ? "content_empty" : undefined,
  }),
  slug: z.preprocess((v) => v === "" || v === null ? undefined : v, SlugSchema.optional()),
  remark: Remark.nullish().transform((v) => v || null),
  password: Password.nullish().transform((v) => v || null),
  expires_at: ExpiresAt.optional().transform((v) => v ?? null),
  max_views: MaxViews.nullish().transform((v) => v ?? 0),
  e2e: E2ETextSchema.optional(),
}).superRefine((v, ctx) => {
  if (typeof v.content !== "string") return;
  const content = (message: string) => ctx.addIssue({ code: "custom", path: ["content"], message });
  if (!v.e2e) {
    const checked = ContentSchema.safeParse(v.content);
    if (!checked.success) content(checked.error.issues[0].message);
    return;
  }
  if (v.content.length > MAX_E2E_CONTENT_CHARS || !E2E_CONTENT.test(v.content)) {
    content("e2e_content_invalid");
  }
  if (!isAccessToken(v.password)) {
    ctx.addIssue({ code: "custom", path: ["password"], message: "e2e_access_invalid" });
  }
});
export type PasteCreate = z.infer<typeof PasteCreateSchema>;

/**
 * PUT /api/pastes/:id (id or slug). An absent field keeps its value (an empty slug too).
 * `password`: null or "" clears it (so does `clearPassword: true`), a string sets it.
 * `newSlug` is `slug`. `max_views: null` is 0 (unlimited). Sending `max_views` (even
 * unchanged) resets the view counter.
 */
export const PasteUpdateSchema = withEditAliases(z.object({
  content: ContentSchema.optional(),
  slug: z.preprocess((v) => v === "" || v === null ? undefined : v, SlugSchema.optional()),
  remark: Remark.nullish(),
  password: Password.nullish(),
  expires_at: ExpiresAt.optional(),
  max_views: MaxViews.nullable().transform((v) => v ?? 0).optional(),
}));
export type PasteUpdate = z.infer<typeof PasteUpdateSchema>;

/** POST /api/paste/:slug. */
export const PasteOpenSchema = z.object({
  password: z.string({ error: "password_required" }).max(MAX_SHARE_PASSWORD_LENGTH),
});

const QueryInt = (min: number, max: number) =>
  z.string().regex(/^\d{1,9}$/, "validation_failed").transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** GET /api/pastes query. `offset` wins over `page` when both are given. */
export const PasteListQuerySchema = z.object({
  page: QueryInt(1, 1_000_000).optional(),
  limit: QueryInt(1, MAX_LIST_LIMIT).optional().transform((v) => v ?? DEFAULT_PASTE_LIST_LIMIT),
  offset: QueryInt(0, 1_000_000_000).optional(),
  search: z.string().trim().max(200).optional().transform((v) => v || undefined),
});
export type PasteListQuery = z.infer<typeof PasteListQuerySchema>;

/** DELETE (or POST) /api/pastes/batch-delete. */
export const PasteBatchDeleteSchema = z.object({
  ids: z.array(z.string().min(1).max(100)).min(1).max(MAX_BATCH_IDS),
});

/** POST /api/pastes/clear-expired. The flag is accepted for compatibility and ignored. */
export const PasteClearExpiredSchema = z.object({ clearExpired: z.boolean().optional() });

/** A paste as the API shows it. `content` is null only in server-rendered locked metadata. */
export type PasteView = {
  id: string;
  slug: string;
  content: string | null;
  remark: string | null;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  /** The share page's path, `/paste/{slug}`. */
  url: string;
  /**
   * The raw text's path, `/api/raw/{slug}`; after a counted open of a paste with a password or
   * a view limit it carries a view token (`?t=`), so following it counts no second view and
   * needs no password in the URL.
   */
  raw_url?: string;
  /** True when the caller is the admin or the creating key (may edit and delete). */
  can_manage: boolean;
  /**
   * On an open of the share (GET or POST /api/paste/{slug}): true when the caller owns it (the
   * admin, or the key that created it), so this view was not counted.
   */
  own_view?: boolean;
  /** Size of the content in UTF-8 bytes. */
  content_size: number;
  /**
   * Set on an end-to-end encrypted paste: `content` is then ciphertext, and `has_password` is
   * true because the server checks the access token derived from the key (docs/E2E.md).
   */
  e2e?: E2EDescriptor | null;
};

/** One row of GET /api/pastes: metadata and a short preview, never the whole content. */
export type PasteListItem = Omit<PasteView, "content"> & {
  preview: string;
  /** Past its expiry or out of views. */
  is_expired: boolean;
};

export type PasteList = {
  items: PasteListItem[];
  total: number;
  page: number;
  limit: number;
  offset: number;
};

/** `data` of a 403 password_required answer; `e2e` tells the browser to derive the token. */
export type PasteLocked = {
  slug: string;
  has_password: true;
  remark?: string;
  e2e?: E2EDescriptor | null;
};

/** Result of a batch delete: ids the caller may not manage or that do not exist are skipped. */
export type PasteBatchDeleteResult = { deleted: number; skipped: number; skipped_ids: string[] };
