/** Calls of the mount explorer (docs/PRODUCT.md §7.8); each throws ApiError. */
import { api } from "../../api/client.ts";
import type { TaskView } from "../../../shared/schemas/tasks.ts";
import type { FsEntry, FsPage } from "../../../shared/schemas/fs.ts";
import { DEFAULT_SEARCH_LIMIT } from "../../../shared/constants.ts";

export type { FsEntry, FsPage, TaskView };

/** Entries per listing page. */
export const LIST_PAGE_SIZE = 200;

/** One page of a folder. `refresh` bypasses the server's listing cache. */
export function listFolder(
  path: string,
  opts: { cursor?: string | null; limit?: number; refresh?: boolean; signal?: AbortSignal } = {},
): Promise<FsPage> {
  return api<FsPage>("/fs/list", {
    query: {
      path,
      cursor: opts.cursor ?? undefined,
      limit: opts.limit ?? LIST_PAGE_SIZE,
      refresh: opts.refresh ? "true" : undefined,
    },
    signal: opts.signal,
  });
}

/** A file's details; throws file_not_found. */
export function getEntry(path: string): Promise<FsEntry> {
  return api<FsEntry>("/fs/get", { query: { path } });
}

/** Creates a folder; throws target_exists when a file has that name. */
export function makeFolder(path: string): Promise<FsEntry> {
  return api<FsEntry>("/fs/mkdir", { method: "POST", body: { path } });
}

/** Renames or moves within one mount; throws target_exists, cross_mount_rename. */
export function renameEntry(oldPath: string, newPath: string): Promise<{ path: string }> {
  return api<{ path: string }>("/fs/rename", { method: "POST", body: { oldPath, newPath } });
}

export type RemoveResult = { deleted: number; failed: { path: string; error: string }[] };

/** Deletes files and folders; reports the ones that failed. */
export function removeEntries(paths: string[]): Promise<RemoveResult> {
  return api<RemoveResult>("/fs/batch-remove", {
    method: "DELETE",
    body: { paths },
    timeoutMs: 5 * 60_000,
  });
}

/** Saves text into a file. */
export function saveText(path: string, content: string): Promise<FsEntry> {
  return api<FsEntry>("/fs/update", {
    method: "POST",
    body: { path, content },
    timeoutMs: 120_000,
  });
}

/** A short-lived direct link to a file (no Authorization header needed to use it). */
export function fileLink(
  path: string,
  opts: { download?: boolean; expiresIn?: number } = {},
): Promise<{ url: string; expires_in: number }> {
  return api<{ url: string; expires_in: number }>("/fs/file-link", {
    query: {
      path,
      force_download: opts.download ? "true" : undefined,
      expires_in: opts.expiresIn,
    },
  });
}

/** Makes a public file share of a mount file; returns its page URL. */
export function createShare(path: string): Promise<{ url: string; slug: string }> {
  return api<{ url: string; slug: string }>("/fs/create-share", {
    method: "POST",
    body: { path },
  });
}

export type CopyItem = { sourcePath: string; targetPath: string };

/** What a copy does with a file already at its target. */
export type CopyConflict = "overwrite" | "skip" | "rename";

/** Starts a copy task; throws copy_into_itself, too_many_items. */
export function startCopy(
  items: CopyItem[],
  onConflict: CopyConflict,
): Promise<{ task_id: string; task?: TaskView }> {
  return api<{ task_id: string; task?: TaskView }>("/fs/batch-copy", {
    method: "POST",
    body: { items, on_conflict: onConflict },
  });
}

/** The entries among `names` that folder `dir` already holds. */
export async function existingIn(dir: string, names: string[]): Promise<FsEntry[]> {
  if (names.length === 0) return [];
  const res = await api<{ existing: FsEntry[] }>("/fs/exists", {
    method: "POST",
    body: { path: dir, names: [...new Set(names)].slice(0, 1000) },
  });
  return res.existing;
}

/** The caller's tasks, newest first as the server orders them. */
export function listTasks(signal?: AbortSignal): Promise<TaskView[]> {
  return api<TaskView[]>("/fs/tasks", { signal });
}

/** Cancels a pending or running task. */
export function cancelTask(id: string): Promise<TaskView> {
  return api<TaskView>(`/fs/tasks/${encodeURIComponent(id)}/cancel`, { method: "POST" });
}

/** Runs a failed or cancelled task again; throws task_not_retryable. */
export function retryTask(id: string): Promise<TaskView> {
  return api<TaskView>(`/fs/tasks/${encodeURIComponent(id)}/retry`, { method: "POST" });
}

/** Removes the caller's finished tasks. */
export function clearTasks(): Promise<{ cleared: number }> {
  return api<{ cleared: number }>("/fs/tasks/clear", { method: "POST" });
}

export type SearchScope = "global" | "mount" | "directory";
export type SearchResult = { items: FsEntry[]; total: number };

/** Searches names (≥ 2 characters, docs/PRODUCT.md §5.4) within a scope. */
export function searchEntries(
  q: string,
  opts: {
    scope: SearchScope;
    mountId?: string;
    path?: string;
    offset?: number;
    limit?: number;
    signal?: AbortSignal;
  },
): Promise<SearchResult> {
  return api<SearchResult>("/fs/search", {
    query: {
      q,
      scope: opts.scope,
      mount_id: opts.scope === "mount" ? opts.mountId : undefined,
      path: opts.scope === "directory" ? opts.path : undefined,
      offset: opts.offset ?? 0,
      limit: opts.limit ?? DEFAULT_SEARCH_LIMIT,
    },
    signal: opts.signal,
  });
}
