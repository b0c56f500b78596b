/**
 * Saving an end-to-end encrypted file to disk, decrypted. The service worker streams it
 * (client/sw/e2e_download.ts): constant memory at any size, in every browser with service
 * workers, through the browser's own download manager. That is the portable path; the File
 * System Access API (showSaveFilePicker) is Chromium's only and asks for a native dialog per
 * file, so it is not used. Without a worker (private windows of some browsers, or before it has
 * started), a file up to MEMORY_SAVE_MAX is decrypted in memory instead; a larger one asks for
 * the command-line client.
 */
import { E2E_DOWNLOAD_PATH, SW_MESSAGES } from "../../../shared/pwa.ts";
import { apiHref } from "../files/files_api.ts";
import { decryptToBlob, type OpenedFile } from "./e2e_open.ts";
import { MEMORY_SAVE_MAX } from "./e2e_limits.ts";

/** docs/PRODUCT.md §9: a message to the service worker waits this long for its answer. */
const MESSAGE_TIMEOUT_MS = 5000;
const POLL_MS = 400;

/** Why a save did not finish: the data (integrity), its link (HTTP), or too large for memory. */
export class SaveError extends Error {
  constructor(readonly reason: string) {
    super(`save failed: ${reason}`);
    this.name = "SaveError";
  }
}

/** Sends a message to the worker and waits for its answer on a MessageChannel. */
function ask<T>(worker: ServiceWorker, message: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error("service worker timeout")), MESSAGE_TIMEOUT_MS);
    channel.port1.onmessage = (e) => {
      clearTimeout(timer);
      resolve(e.data as T);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** How long a first visit may wait for the worker to finish installing. */
const WORKER_WAIT_MS = 10_000;

/** The active worker, when the browser has one for this page within WORKER_WAIT_MS. */
async function activeWorker(): Promise<ServiceWorker | null> {
  if (!globalThis.isSecureContext || !("serviceWorker" in navigator)) return null;
  const timeout = new Promise<null>((r) => setTimeout(() => r(null), WORKER_WAIT_MS));
  const reg = await Promise.race([navigator.serviceWorker.ready, timeout]);
  return reg?.active ?? null;
}

type Status = { state: string; loaded: number; total: number; reason?: string } | null;

/** Streams the file through the worker; false when the worker does not take the job. */
async function saveThroughWorker(
  worker: ServiceWorker,
  opened: OpenedFile,
  onProgress: (loaded: number, total: number) => void,
): Promise<boolean> {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16))
    .join("");
  const job = {
    id,
    url: new URL(apiHref(opened.file.download_url), location.href).href,
    ikm: opened.secret.ikm,
    name: opened.meta.name,
    type: opened.meta.type,
    sealedSize: opened.file.size,
  };
  // An older worker (an update not yet taken) does not answer: the caller falls back.
  const ack = await ask<{ ok?: boolean }>(worker, { type: SW_MESSAGES.e2eDownload, job })
    .catch(() => null);
  if (!ack?.ok) return false;
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.src = E2E_DOWNLOAD_PATH + id;
  document.body.append(frame);
  try {
    for (let seen = false;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const status = await ask<Status>(worker, { type: SW_MESSAGES.e2eDownloadStatus, id })
        .catch(() => null);
      if (status) {
        seen = true;
        onProgress(status.loaded, status.total);
        if (status.state === "done") return true;
        if (status.state === "failed") throw new SaveError(status.reason ?? "network");
      } else if (seen) throw new SaveError("network"); // the worker lost the job
    }
  } finally {
    // Leave the frame a moment: removing it at once can cancel a download just handed over.
    setTimeout(() => frame.remove(), 60_000);
  }
}

/** Decrypts the file in memory and saves it with a script-started download. */
async function saveFromMemory(opened: OpenedFile): Promise<void> {
  if (opened.file.size > MEMORY_SAVE_MAX) throw new SaveError("too_large");
  const blob = await decryptToBlob(opened, MEMORY_SAVE_MAX);
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = opened.meta.name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves the decrypted file: streamed by the service worker, else from memory. Resolves once
 * the browser has all of it; throws SaveError (integrity, format, an HTTP status, too_large)
 * or E2EOpenError from the in-memory path.
 */
export async function saveDecrypted(
  opened: OpenedFile,
  onProgress: (loaded: number, total: number) => void,
): Promise<"streamed" | "memory"> {
  const worker = await activeWorker();
  if (worker && await saveThroughWorker(worker, opened, onProgress)) return "streamed";
  await saveFromMemory(opened);
  return "memory";
}
