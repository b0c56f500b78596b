/** The shape of a paste record in KV, shared by the repo and the slug lookup. */
import type { E2EDescriptor } from "../../shared/schemas/e2e.ts";

export type PasteRecord = {
  id: string;
  slug: string;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  /** 0 = unlimited. */
  max_views: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  /** The content version: chunks live under paste_chunks/{content_id}. */
  content_id: string;
  content_size: number;
  /** 0 for inline (or empty) content. */
  content_chunks: number;
  /** The content itself when it is small (paste_content.ts INLINE_BYTES): no chunks then. */
  content_text?: string;
  /** The first characters of the content, for lists ("" for an end-to-end encrypted paste). */
  preview: string;
  /** Set on an end-to-end encrypted paste: the content is ciphertext (docs/E2E.md). */
  e2e?: E2EDescriptor;
};

/** A record together with the versionstamp it was read at. */
export type PasteEntry = { value: PasteRecord; versionstamp: string };
