/**
 * Pack download (docs/PRODUCT.md §2.3 and §4.2): the basket's files, folders
 * walked page by page, are streamed into one zip in the browser with client-zip. Each file is
 * fetched only when the zip writer reaches it, so memory holds one chunk at a time; the zip is
 * saved through the File System Access API when the user chooses it (streamed to disk), else
 * as a Blob URL. Files that fail are left out and reported; the rest of the zip is written.
 */
import { downloadZip } from "client-zip";
import { apiBase } from "../../api/client.ts";
import { authHeader, getAuth } from "../../auth/auth_store.ts";
import { downloadBlob } from "../../lib/download.ts";
import type { FsEntry, FsPage } from "./explorer_api.ts";
import type { BasketItem } from "./basket_store.ts";

/** Totals above this get a warning (a Blob-saved zip is held in memory). */
export const LARGE_PACK_BYTES = 500 * 1024 * 1024;
/** Totals above this get a stronger warning. */
export const VERY_LARGE_PACK_BYTES = 2 * 1024 * 1024 * 1024;

export type PackFileState = "pending" | "downloading" | "completed" | "failed";
/** The pack as a whole: preparing (walking folders), then ready, downloading, done. */
export type PackStatus = "preparing" | "ready" | "downloading" | "completed" | "failed";

export type PackFile = {
  path: string;
  /** The name inside the zip, with folders ("photos/2024/a.jpg"). */
  zipName: string;
  size: number;
  modified: string | null;
};

export type PackPlan = { files: PackFile[]; emptyFolders: string[]; totalBytes: number };

/** How big a total is: normal, large or very large (docs/PRODUCT.md §8.5 basket warnings). */
export function packSizeLevel(bytes: number): "normal" | "large" | "veryLarge" {
  if (bytes > VERY_LARGE_PACK_BYTES) return "veryLarge";
  if (bytes > LARGE_PACK_BYTES) return "large";
  return "normal";
}

/** `name`, or `name (2).ext`, … so that no two zip entries collide. */
export function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) {
    taken.add(name);
    return name;
  }
  const slash = name.lastIndexOf("/");
  const dot = name.lastIndexOf(".");
  const cut = dot > slash + 1 ? dot : name.length;
  for (let n = 2;; n++) {
    const candidate = `${name.slice(0, cut)} (${n})${name.slice(cut)}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

type Lister = (path: string, cursor: string | null) => Promise<FsPage>;

/**
 * Lists every file the basket stands for: files as they are, folders walked to the bottom
 * (every page of every folder). Folder entries keep the folder's name as the zip prefix.
 */
export async function planPack(
  basket: BasketItem[],
  list: Lister,
  signal?: AbortSignal,
): Promise<PackPlan> {
  const files: PackFile[] = [];
  const emptyFolders: string[] = [];
  const taken = new Set<string>();
  const walk = async (dir: string, prefix: string) => {
    const queue: { dir: string; prefix: string }[] = [{ dir, prefix }];
    while (queue.length) {
      const next = queue.shift()!;
      let cursor: string | null = null;
      let any = false;
      do {
        if (signal?.aborted) throw new DOMException("aborted", "AbortError");
        const page: FsPage = await list(next.dir, cursor);
        for (const e of page.items as FsEntry[]) {
          any = true;
          const zipName = `${next.prefix}/${e.name}`;
          if (e.type === "directory") queue.push({ dir: e.path, prefix: zipName });
          else {
            files.push({
              path: e.path,
              zipName: uniqueName(zipName, taken),
              size: e.size,
              modified: e.modified,
            });
          }
        }
        cursor = page.cursor;
      } while (cursor);
      if (!any) emptyFolders.push(next.prefix + "/");
    }
  };
  for (const item of basket) {
    if (item.type === "directory") await walk(item.path, uniqueName(item.name, taken));
    else {
      files.push({
        path: item.path,
        zipName: uniqueName(item.name, taken),
        size: item.size,
        modified: null,
      });
    }
  }
  return { files, emptyFolders, totalBytes: files.reduce((s, f) => s + f.size, 0) };
}

/** Fetches a mount file's bytes with the caller's credentials; throws on HTTP errors. */
export async function fetchMountFile(path: string, signal?: AbortSignal): Promise<Response> {
  const auth = authHeader(getAuth());
  const res = await fetch(`${apiBase()}/api/fs/download?path=${encodeURIComponent(path)}`, {
    headers: auth ? { Authorization: auth } : {},
    signal,
  });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw new Error(`HTTP ${res.status}`);
  }
  return res;
}

/** Passes a body through, calling `done` when it has been read to the end. */
function watchEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ flush: () => done() }),
  );
}

export type PackCallbacks = {
  onFile: (index: number, state: PackFileState) => void;
  fetchFile?: (path: string, signal?: AbortSignal) => Promise<Response>;
  signal?: AbortSignal;
};

/** The zip of a plan as a streamed Response; files that cannot be fetched are skipped. */
export function zipPlan(plan: PackPlan, cb: PackCallbacks): Response {
  const fetchFile = cb.fetchFile ?? fetchMountFile;
  async function* entries() {
    for (const folder of plan.emptyFolders) yield { name: folder };
    for (let i = 0; i < plan.files.length; i++) {
      if (cb.signal?.aborted) return;
      const f = plan.files[i];
      cb.onFile(i, "downloading");
      let res: Response;
      try {
        res = await fetchFile(f.path, cb.signal);
      } catch {
        cb.onFile(i, "failed");
        continue;
      }
      yield {
        name: f.zipName,
        input: watchEnd(res.body!, () => cb.onFile(i, "completed")),
        lastModified: f.modified ? new Date(f.modified) : undefined,
      };
    }
  }
  return downloadZip(entries());
}

type SavePicker = (opts: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable: () => Promise<WritableStream<Uint8Array>> }>;

/** The File System Access save picker, where the browser has one. */
export function savePicker(): SavePicker | null {
  const fn = (globalThis as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  return typeof fn === "function" ? fn.bind(globalThis) : null;
}

/** Asks where to save the zip (must run in the click that starts the pack). */
export async function pickZipTarget(name: string): Promise<WritableStream<Uint8Array> | null> {
  const pick = savePicker();
  if (!pick) return null;
  const handle = await pick({
    suggestedName: name,
    types: [{ description: "ZIP", accept: { "application/zip": [".zip"] } }],
  });
  return await handle.createWritable();
}

/**
 * Writes the zip to a picked file, or downloads it through a Blob URL. A cancelled pack
 * (`signal`) aborts the file write and never offers a partial zip.
 */
export async function saveZip(
  zip: Response,
  name: string,
  target: WritableStream<Uint8Array> | null,
  signal?: AbortSignal,
): Promise<void> {
  if (target) {
    await zip.body!.pipeTo(target, { signal });
    return;
  }
  const blob = await zip.blob();
  if (signal?.aborted) return;
  downloadBlob(blob, name, 60_000);
}

/** The zip's file name: the one folder's name, else `cubby-YYYYMMDD-HHmm.zip`. */
export function zipNameOf(basket: BasketItem[], now = new Date()): string {
  if (basket.length === 1 && basket[0].type === "directory") return `${basket[0].name}.zip`;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `cubby-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${
    pad(now.getHours())
  }${pad(now.getMinutes())}.zip`;
}
