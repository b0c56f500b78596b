/**
 * The upload queue behind the upload screen: files wait as "ready" until the user starts them,
 * then run at most `concurrency` at a time; each can be cancelled, retried or removed.
 * It is plain TypeScript with a subscribe/snapshot pair for useSyncExternalStore, so its
 * scheduling is tested without a browser (upload_queue_test.ts).
 */
import {
  type FileView,
  PAUSE_REASON,
  type UploadProgress,
  type UploadRequest,
  type UrlInfo,
} from "../../lib/uploader.ts";

export type QueueStatus =
  /** Chosen, not started yet. */
  | "ready"
  /** Started, waiting for a free slot. */
  | "waiting"
  | "uploading"
  | "done"
  | "failed"
  | "cancelled"
  /** Refused before sending (e.g. over the size limit); can only be removed. */
  | "rejected";

export type QueueItem = {
  id: string;
  /** The chosen file; null for a URL upload. */
  file: File | null;
  /** A URL upload's source (from url/info); null for a file. */
  url: UrlInfo | null;
  /** The name the file is uploaded with. */
  name: string;
  /** Null while unknown (a URL that did not tell its size). */
  size: number | null;
  /** An unfinished multipart upload of this file was found: starting it resumes. */
  resumable: boolean;
  status: QueueStatus;
  progress: UploadProgress | null;
  result: FileView | null;
  error: unknown;
};

/** What a started item is uploaded with (everything but the file and the callbacks). */
export type UploadJob = Pick<UploadRequest, "method" | "options" | "encrypt">;

/** The upload function the queue calls; uploadFile() in the app, a fake in tests. */
export type Uploader = (req: UploadRequest) => Promise<FileView>;
/** Called with the error of a failed item that is removed (discardUpload() in the app). */
export type Discarder = (error: unknown) => void;

export type SettledEvent =
  | { kind: "done"; item: QueueItem; result: FileView }
  | { kind: "failed"; item: QueueItem; error: unknown }
  | { kind: "cancelled"; item: QueueItem };

const FINISHED: ReadonlySet<QueueStatus> = new Set(["done", "failed", "cancelled", "rejected"]);
const ACTIVE: ReadonlySet<QueueStatus> = new Set(["waiting", "uploading"]);

/** True while an item waits or uploads. */
export function isActive(item: QueueItem): boolean {
  return ACTIVE.has(item.status);
}

/** True once an item will not change by itself any more. */
export function isFinished(item: QueueItem): boolean {
  return FINISHED.has(item.status);
}

let counter = 0;

function blankItem(): QueueItem {
  return {
    id: `u${Date.now().toString(36)}${(counter++).toString(36)}`,
    file: null,
    url: null,
    name: "",
    size: null,
    resumable: false,
    status: "ready",
    progress: null,
    result: null,
    error: null,
  };
}

export class UploadQueue {
  private items: QueueItem[] = [];
  private jobs = new Map<string, UploadJob>();
  private controllers = new Map<string, AbortController>();
  private listeners = new Set<() => void>();

  constructor(
    private upload: Uploader,
    private concurrency = 2,
    private onSettled?: (e: SettledEvent) => void,
    private discard?: Discarder,
  ) {}

  /** The current items (a new array after every change). */
  getSnapshot = (): QueueItem[] => this.items;

  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe = (listener: () => void): () => void => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Adds files as "ready". `reject` returns an error for a file that must not be sent (it is
   * added as "rejected"); `rename` may give a file another upload name; `resumable` tells
   * whether an unfinished upload of the file was found. Returns the new ids.
   */
  add(
    files: File[],
    reject?: (file: File) => unknown,
    rename?: (file: File) => string,
    resumable?: (file: File, name: string) => boolean,
  ): string[] {
    const added = files.map((file): QueueItem => {
      const error = reject?.(file) ?? null;
      const name = rename?.(file) ?? file.name;
      return {
        ...blankItem(),
        file,
        name,
        size: file.size,
        resumable: !error && (resumable?.(file, name) ?? false),
        status: error ? "rejected" : "ready",
        error,
      };
    });
    this.set([...this.items, ...added]);
    return added.map((i) => i.id);
  }

  /** Adds a URL upload as "ready" (or "rejected" with `error`); returns its id. */
  addUrl(info: UrlInfo, error: unknown = null): string {
    const item: QueueItem = {
      ...blankItem(),
      url: info,
      name: info.filename,
      size: info.size,
      status: error ? "rejected" : "ready",
      error,
    };
    this.set([...this.items, item]);
    return item.id;
  }

  /** Starts the given items (ready, failed or cancelled ones) with `job`, in queue order. */
  start(ids: string[], job: (item: QueueItem) => UploadJob): void {
    const wanted = new Set(ids);
    this.set(this.items.map((it) => {
      if (!wanted.has(it.id) || !["ready", "failed", "cancelled"].includes(it.status)) return it;
      this.jobs.set(it.id, job(it));
      return { ...it, status: "waiting", progress: null, error: null, result: null };
    }));
    this.pump();
  }

  /** Cancels a waiting or running item. */
  cancel(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (!item || !isActive(item)) return;
    const controller = this.controllers.get(id);
    if (controller) {
      controller.abort();
      return; // the running upload settles as cancelled
    }
    this.patch(id, { status: "cancelled" });
    this.onSettled?.({ kind: "cancelled", item: this.find(id)! });
  }

  /** Cancels everything that waits or runs. */
  cancelAll(): void {
    for (const it of this.items) if (isActive(it)) this.cancel(it.id);
  }

  /** Stops running uploads but keeps them resumable (the screen goes away). */
  pauseAll(): void {
    for (const c of this.controllers.values()) c.abort(PAUSE_REASON);
  }

  /** Removes an item, cancelling it first when it is active. */
  remove(id: string): void {
    const item = this.find(id);
    if (item?.status === "failed") this.discard?.(item.error);
    this.cancel(id);
    this.jobs.delete(id);
    this.set(this.items.filter((i) => i.id !== id));
  }

  /** Removes every finished item. */
  clearFinished(): void {
    this.set(this.items.filter((i) => !isFinished(i)));
  }

  private find(id: string) {
    return this.items.find((i) => i.id === id);
  }

  private set(next: QueueItem[]) {
    this.items = next;
    for (const l of this.listeners) l();
  }

  private patch(id: string, patch: Partial<QueueItem>) {
    if (!this.find(id)) return;
    this.set(this.items.map((i) => (i.id === id ? { ...i, ...patch } : i)));
  }

  /** Starts waiting items while fewer than `concurrency` run. */
  private pump() {
    let running = this.items.filter((i) => i.status === "uploading").length;
    for (const item of this.items) {
      if (running >= this.concurrency) break;
      if (item.status !== "waiting") continue;
      running++;
      void this.run(item);
    }
  }

  private async run(item: QueueItem) {
    const job = this.jobs.get(item.id);
    if (!job) return;
    const controller = new AbortController();
    this.controllers.set(item.id, controller);
    this.patch(item.id, { status: "uploading" });
    let event: SettledEvent | null = null;
    try {
      const result = await this.upload({
        file: item.file,
        url: item.url,
        filename: item.name,
        method: job.method,
        options: job.options,
        encrypt: job.encrypt,
        signal: controller.signal,
        onProgress: (progress) => {
          if (!controller.signal.aborted) this.patch(item.id, { progress });
        },
      });
      this.patch(item.id, { status: "done", result, resumable: false });
      event = { kind: "done", item: this.find(item.id) ?? item, result };
    } catch (error) {
      const cancelled = controller.signal.aborted;
      this.patch(item.id, { status: cancelled ? "cancelled" : "failed", error });
      const settled = this.find(item.id) ?? item;
      event = cancelled
        ? { kind: "cancelled", item: settled }
        : { kind: "failed", item: settled, error };
    } finally {
      this.controllers.delete(item.id);
    }
    this.onSettled?.(event);
    this.pump();
  }
}
