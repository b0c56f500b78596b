/** Calls of the file screens (docs/PRODUCT.md §7.3); every function throws ApiError. */
import { api, apiBase } from "../../api/client.ts";
import { sendOrQueue } from "../../offline/queued_api.ts";
import type { FileView, PublicFileView } from "../../../shared/schemas/files.ts";

export type { FileView, PublicFileView };

/** What the server renders a share page with: metadata only, no links (never a counted view). */
export type FileMeta = Pick<
  PublicFileView,
  | "slug"
  | "filename"
  | "size"
  | "mimetype"
  | "has_password"
  | "max_views"
  | "views"
  | "expires_at"
  | "created_at"
  | "remark"
  | "e2e"
>;

export type FileList = {
  items: FileView[];
  total: number;
  /** The bytes of every file the search matched, on all pages. */
  total_size: number;
  limit: number;
  offset: number;
};

/** Fields of PUT /api/files/:id; absent keeps, password null or "" clears. */
export type UpdateFileInput = {
  remark?: string;
  slug?: string;
  expires_at?: string | null;
  max_views?: number;
  password?: string | null;
  use_proxy?: boolean;
};

export type DeleteMode = "both" | "record_only";
export type BatchDeleteResult = { deleted: number; failed: { id: string; error: string }[] };
export type OfficeLinks = { url: string; microsoft: string; google: string };

const enc = encodeURIComponent;

/*
 * Opening a share sends the user's credentials when logged in: the share's owner (the admin, or
 * the key that created it) is recognised, and the owner's views are not counted. A 403
 * password_required or 401 wrong_password never ends the session (client.ts logs out only on
 * expired credentials), and the server never lets an authenticated reply into the offline
 * cache. Manage rights still come from getFile() / findFileBySlug().
 */

/** Opens a share; counts a view. Throws password_required, file_not_found, file_expired. */
export function openFile(slug: string): Promise<PublicFileView> {
  return api<PublicFileView>(`/public/files/${enc(slug)}`);
}

/** Opens a protected share with its password; throws wrong_password or too_many_requests. */
export function unlockFile(slug: string, password: string): Promise<PublicFileView> {
  return sendOrQueue<PublicFileView>(`/public/files/${enc(slug)}/verify`, {
    type: "verifyFilePassword",
    method: "POST",
    body: { password },
  });
}

/**
 * Links for the online Office viewers. The view token of the share's links (from the counted
 * open) admits it without counting again, and then the password stays out of the URL; without
 * a token the server counts a view and checks the password.
 */
export function getOfficeLinks(file: PublicFileView, password?: string): Promise<OfficeLinks> {
  const token = viewTokenOf(file);
  return api<OfficeLinks>(`/office-preview/${enc(file.slug)}`, {
    query: { t: token || undefined, password: token ? undefined : password || undefined },
  });
}

/** The view token carried by a share's links ("" when they carry none). */
export function viewTokenOf(file: Pick<PublicFileView, "download_url">): string {
  return new URL(file.download_url, "http://cubby.invalid").searchParams.get("t") ?? "";
}

/** Lists the files the caller may manage (key users see their own). */
export function listFiles(
  q: { limit: number; offset: number; search?: string },
): Promise<FileList> {
  return api<FileList>("/files", {
    query: { limit: q.limit, offset: q.offset, search: q.search || undefined },
  });
}

/** Deletes the caller's expired and used-up file shares with their stored files. */
export function clearExpiredFiles(): Promise<{ deleted: number }> {
  return api<{ deleted: number }>("/files/clear-expired", {
    method: "POST",
    body: { clearExpired: true },
  });
}

/** One file as its manager sees it. */
export function getFile(id: string): Promise<FileView> {
  return api<FileView>(`/files/${enc(id)}`);
}

/** The managed record of a slug, or null when the caller may not manage it. */
export async function findFileBySlug(slug: string): Promise<FileView | null> {
  const list = await listFiles({ limit: 200, offset: 0, search: slug });
  return list.items.find((f) => f.slug === slug) ?? null;
}

/** Updates a file share as its manager; throws slug_taken (409) among others. */
export function updateFile(id: string, input: UpdateFileInput): Promise<FileView> {
  return api<FileView>(`/files/${enc(id)}`, { method: "PUT", body: input });
}

/** Deletes file shares, with their stored objects ("both") or the records only. */
export function deleteFiles(ids: string[], mode: DeleteMode): Promise<BatchDeleteResult> {
  return api<BatchDeleteResult>("/files/batch-delete", {
    method: "DELETE",
    body: { ids, delete_mode: mode },
  });
}

/**
 * A server path such as preview_url made absolute against the API base (browser only); full
 * URLs and the blob: URLs of files decrypted in the page stay as they are.
 */
export function apiHref(path: string): string {
  return /^(https?:\/\/|blob:)/i.test(path) ? path : apiBase() + path;
}

/** The share's links with the slug replaced (their token is bound to the file, not the slug). */
export function withSlug(file: PublicFileView, slug: string): PublicFileView {
  const swap = (url: string) =>
    url.replace(/(\/api\/file-(?:view|download)\/)[^?]*/, `$1${enc(slug)}`);
  return {
    ...file,
    slug,
    preview_url: swap(file.preview_url),
    download_url: swap(file.download_url),
  };
}
