/**
 * What a delete or a download task does with one item; copy items live in tasks.ts. Both go
 * through FsService, so the search index and cached listings stay current.
 */
import type { FsService } from "./fs.ts";
import type { Auth } from "../services/auth.ts";
import type { TaskItem } from "./task_repo.ts";
import { AppError, fileTooLarge } from "../errors.ts";
import { filenameFromResponse, guardedFetch } from "../services/url_fetch.ts";
import { limitStream } from "../lib/limit_stream.ts";

/** What the steps need besides the item: the filesystem and the fetch limits. */
export type TaskStepDeps = {
  fs: FsService;
  allowLoopbackFetch: boolean;
  maxUploadBytes: () => Promise<number>;
};

const DOWNLOAD_TIMEOUT_MS = 60 * 60_000;

/** Deletes one file or folder (`sourcePath`); throws the reason it could not. */
export async function deleteItem(deps: TaskStepDeps, item: TaskItem, auth: Auth): Promise<void> {
  const { failed } = await deps.fs.remove([item.sourcePath], auth);
  if (failed.length) throw new AppError(failed[0].error as "file_not_found", 400);
}

/**
 * Fetches a URL (`sourcePath`, guarded against request forgery) into the folder `targetPath`,
 * streamed, under the name the server gives it; throws the reason it could not.
 */
export async function downloadItem(deps: TaskStepDeps, item: TaskItem, auth: Auth): Promise<void> {
  const { response, finalUrl } = await guardedFetch(item.sourcePath, {
    allowLoopback: deps.allowLoopbackFetch,
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
  });
  const max = await deps.maxUploadBytes();
  const length = response.headers.get("content-length");
  if (length && Number(length) > max) {
    await response.body?.cancel();
    throw fileTooLarge(max, Number(length));
  }
  if (!response.body) throw new AppError("url_unreachable", 400);
  const name = filenameFromResponse(response, finalUrl);
  await deps.fs.upload(item.targetPath, name, limitStream(response.body, max).stream, auth);
}
