/**
 * What the file view (FilePage.tsx) shows, as a state: its first value comes from the server's
 * page data alone (metadata, never a counted view), so the first client render matches the
 * server's markup; the browser then opens the share.
 */
import { ApiError } from "../../api/client.ts";
import type { FileMeta, PublicFileView } from "./files_api.ts";
import { statusOfCode } from "./format.ts";
import { lockedScreen } from "../../lib/share_lock.ts";
import type { E2EDescriptor } from "../../../shared/e2e/descriptor.ts";

/** The server's page data for /file/{slug} (server/ssr/file_page.ts). */
export type FilePageData = { file?: FileMeta | null; error?: string };

export type FileScreenState =
  /** Opening the share (no password, or reached by in-app navigation). */
  | { kind: "opening"; meta: FileMeta | null; password?: string }
  | { kind: "password"; meta: FileMeta | null }
  | { kind: "ready"; file: PublicFileView; password?: string; offlineSavedAt?: number }
  | { kind: "error"; status: number; code: string; message?: string }
  | { kind: "deleted" }
  /** End-to-end encrypted: opened and decrypted by E2EFileView with the link's key. */
  | { kind: "e2e"; meta: FileMeta | null; e2e: E2EDescriptor };

/** What a navigation within the app may hand over (after editing the link suffix). */
export type FileHandedState =
  | { file?: PublicFileView; password?: string; reopen?: boolean }
  | null;

/**
 * The first state: handed over by a navigation, from the server's page data (undefined once a
 * share screen has used it: useShareScreen), or opening.
 */
export function initialFileScreen(
  slug: string,
  page: FilePageData | undefined,
  navState: unknown,
): FileScreenState {
  if (!slug) return { kind: "error", status: 400, code: "missing_slug" };
  const handed = navState as FileHandedState;
  if (handed?.file?.slug === slug) {
    return { kind: "ready", file: handed.file, password: handed.password };
  }
  // The owner's edit retired the links (FilePage's `saved`): open again, with the password.
  if (handed?.reopen) {
    return { kind: "opening", meta: null, password: handed.password };
  }
  if (page) {
    // Only a file page's error: the document may have been another share page.
    if (page.error?.startsWith("file_")) {
      return { kind: "error", status: statusOfCode(page.error), code: page.error };
    }
    if (page.file?.slug === slug) {
      if (page.file.e2e) return { kind: "e2e", meta: page.file, e2e: page.file.e2e };
      return page.file.has_password
        ? { kind: "password", meta: page.file }
        : { kind: "opening", meta: page.file };
    }
  }
  return { kind: "opening", meta: null };
}

/** The state after a failed open: the password prompt, or an error with its status. */
export function fileScreenForError(
  err: unknown,
  meta: FileMeta | null,
  message: string,
): FileScreenState {
  const locked = lockedScreen(err, meta);
  if (locked) return locked;
  if (!(err instanceof ApiError)) {
    return { kind: "error", status: 0, code: "request_failed", message };
  }
  if (err.code === "wrong_password") return { kind: "password", meta };
  return { kind: "error", status: err.status, code: err.code, message };
}
